"""Sharding specs of ONNX models: conversion, the formalism's checker, inference and
per-device execution (the `onnx` extra)."""
