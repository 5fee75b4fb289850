"""Sharding propagation with Shardy's semantics: op sharding rules, projection,
factor propagation, the driver and the pipeline around it.

`shardonnay.propagate(module)` (defined with the pipeline, `shardonnay.pipeline`) is the
front door:

>>> from shardonnay import parse_module, propagate
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=4]>
... func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
...     -> tensor<8x4xf32> {
...   %0 = stablehlo.negate %arg0 : tensor<8x4xf32>
...   return %0 : tensor<8x4xf32>
... }''')
>>> negate = propagate(module).functions[0].body.ops[0]
>>> print(negate.attributes["sdy.sharding"])        # closed by the pipeline's export
#sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>
>>> bare = propagate(module, pipeline=False).functions[0].body.ops[0]
>>> print(bare.attributes["sdy.sharding"])           # Shardy's propagation pass alone
#sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>
>>> text = propagate(module, explain=True).to_text()   # "x" came from input 0, in step 0
>>> 'sdy.sharding_origins = [{x = "input: 0"}]' in text
True
>>> '#sdy.propagation_edges<[{step-0 = [{"x" = operand-0 -> [result-0]}]}]>' in text
True
"""
