"""Shardy's import passes, run before propagation: constants, calls, constraints, groups, meshes."""
