"""Generators, oracles and example programs for shardonnay's tests and benchmarks.

Generators: `program_generator` (annotated random programs), `pass_programs`
(the pipeline and programs each of Shardy's passes is compared on),
`sharding_pairs` (shardings to reshard between), `strategies` (hypothesis),
`structural_mutations` (careless edits of real programs, for fuzzing),
`onnx_models`. Example programs: `partitioned_programs`, `pinned_programs`.
Oracles: `mlir_oracle` (MLIR and Shardy inside jaxlib), `shardy_rules`,
`jax_numerics`. `inline` inlines calls; `checkout` finds the test data of a
source checkout. Nothing here is imported by `import shardonnay`; each module
imports its optional dependency (jax, hypothesis, onnx) itself.
"""
