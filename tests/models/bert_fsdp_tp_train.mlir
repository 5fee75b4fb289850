module @jit_step attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["fsdp"=4, "tp"=2]> {stablehlo.mesh = {axes = [{name = "fsdp", size = 4 : i64}, {name = "tp", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg1: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg2: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg3: tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg4: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg5: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg6: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg7: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg8: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg9: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg10: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg11: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg12: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg13: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg14: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg15: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg16: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg17: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg18: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg19: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg20: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg21: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg22: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg23: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg24: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg25: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg26: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg27: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg28: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg29: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg30: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg31: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg32: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg33: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg34: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg35: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg36: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg37: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg38: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {}]>}, %arg39: tensor<3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg40: tensor<32x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg41: tensor<i32> {sdy.sharding = #sdy.sharding<@mesh, []>}, %arg42: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg43: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg44: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg45: tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg46: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg47: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg48: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg49: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg50: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg51: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg52: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg53: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg54: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg55: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg56: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg57: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg58: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg59: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg60: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg61: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg62: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg63: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg64: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg65: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg66: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg67: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg68: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg69: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg70: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg71: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg72: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg73: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg74: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg75: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg76: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg77: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg78: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg79: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg80: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {}]>}, %arg81: tensor<3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg82: tensor<32x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg83: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg84: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg85: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg86: tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg87: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg88: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg89: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg90: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg91: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg92: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg93: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg94: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg95: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg96: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg97: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg98: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg99: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg100: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg101: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg102: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg103: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg104: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg105: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg106: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg107: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg108: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg109: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg110: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg111: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg112: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg113: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg114: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg115: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg116: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg117: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg118: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg119: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg120: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg121: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {}]>}, %arg122: tensor<3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg123: tensor<32x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg124: tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {}]>}, %arg125: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}]>}) -> (tensor<32xf32> {jax.result_info = "result[0]['bert']['embeddings']['LayerNorm']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[0]['bert']['embeddings']['LayerNorm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<16x32xf32> {jax.result_info = "result[0]['bert']['embeddings']['position_embeddings']['embedding']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<2x32xf32> {jax.result_info = "result[0]['bert']['embeddings']['token_type_embeddings']['embedding']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<64x32xf32> {jax.result_info = "result[0]['bert']['embeddings']['word_embeddings']['embedding']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['0']['attention']['output']['LayerNorm']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['0']['attention']['output']['LayerNorm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['0']['attention']['output']['dense']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['0']['attention']['output']['dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['0']['attention']['self']['key']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['0']['attention']['self']['key']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['0']['attention']['self']['query']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['0']['attention']['self']['query']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['0']['attention']['self']['value']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['0']['attention']['self']['value']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<64xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['0']['intermediate']['dense']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x64xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['0']['intermediate']['dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['0']['output']['LayerNorm']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['0']['output']['LayerNorm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['0']['output']['dense']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<64x32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['0']['output']['dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['1']['attention']['output']['LayerNorm']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['1']['attention']['output']['LayerNorm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['1']['attention']['output']['dense']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['1']['attention']['output']['dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['1']['attention']['self']['key']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['1']['attention']['self']['key']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['1']['attention']['self']['query']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['1']['attention']['self']['query']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['1']['attention']['self']['value']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['1']['attention']['self']['value']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<64xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['1']['intermediate']['dense']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x64xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['1']['intermediate']['dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['1']['output']['LayerNorm']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['1']['output']['LayerNorm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['1']['output']['dense']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<64x32xf32> {jax.result_info = "result[0]['bert']['encoder']['layer']['1']['output']['dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[0]['bert']['pooler']['dense']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x32xf32> {jax.result_info = "result[0]['bert']['pooler']['dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {}]>}, tensor<3xf32> {jax.result_info = "result[0]['classifier']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x3xf32> {jax.result_info = "result[0]['classifier']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<i32> {jax.result_info = "result[1][0].count", sdy.sharding = #sdy.sharding<@mesh, []>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['bert']['embeddings']['LayerNorm']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['bert']['embeddings']['LayerNorm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<16x32xf32> {jax.result_info = "result[1][0].mu['bert']['embeddings']['position_embeddings']['embedding']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<2x32xf32> {jax.result_info = "result[1][0].mu['bert']['embeddings']['token_type_embeddings']['embedding']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<64x32xf32> {jax.result_info = "result[1][0].mu['bert']['embeddings']['word_embeddings']['embedding']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['0']['attention']['output']['LayerNorm']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['0']['attention']['output']['LayerNorm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['0']['attention']['output']['dense']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['0']['attention']['output']['dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['0']['attention']['self']['key']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['0']['attention']['self']['key']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['0']['attention']['self']['query']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['0']['attention']['self']['query']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['0']['attention']['self']['value']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['0']['attention']['self']['value']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<64xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['0']['intermediate']['dense']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x64xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['0']['intermediate']['dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['0']['output']['LayerNorm']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['0']['output']['LayerNorm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['0']['output']['dense']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<64x32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['0']['output']['dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['1']['attention']['output']['LayerNorm']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['1']['attention']['output']['LayerNorm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['1']['attention']['output']['dense']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['1']['attention']['output']['dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['1']['attention']['self']['key']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['1']['attention']['self']['key']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['1']['attention']['self']['query']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['1']['attention']['self']['query']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['1']['attention']['self']['value']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['1']['attention']['self']['value']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<64xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['1']['intermediate']['dense']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x64xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['1']['intermediate']['dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['1']['output']['LayerNorm']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['1']['output']['LayerNorm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['1']['output']['dense']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<64x32xf32> {jax.result_info = "result[1][0].mu['bert']['encoder']['layer']['1']['output']['dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['bert']['pooler']['dense']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].mu['bert']['pooler']['dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {}]>}, tensor<3xf32> {jax.result_info = "result[1][0].mu['classifier']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x3xf32> {jax.result_info = "result[1][0].mu['classifier']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['bert']['embeddings']['LayerNorm']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['bert']['embeddings']['LayerNorm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<16x32xf32> {jax.result_info = "result[1][0].nu['bert']['embeddings']['position_embeddings']['embedding']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<2x32xf32> {jax.result_info = "result[1][0].nu['bert']['embeddings']['token_type_embeddings']['embedding']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<64x32xf32> {jax.result_info = "result[1][0].nu['bert']['embeddings']['word_embeddings']['embedding']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['0']['attention']['output']['LayerNorm']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['0']['attention']['output']['LayerNorm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['0']['attention']['output']['dense']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['0']['attention']['output']['dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['0']['attention']['self']['key']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['0']['attention']['self']['key']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['0']['attention']['self']['query']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['0']['attention']['self']['query']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['0']['attention']['self']['value']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['0']['attention']['self']['value']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<64xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['0']['intermediate']['dense']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x64xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['0']['intermediate']['dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['0']['output']['LayerNorm']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['0']['output']['LayerNorm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['0']['output']['dense']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<64x32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['0']['output']['dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['1']['attention']['output']['LayerNorm']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['1']['attention']['output']['LayerNorm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['1']['attention']['output']['dense']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['1']['attention']['output']['dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['1']['attention']['self']['key']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['1']['attention']['self']['key']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['1']['attention']['self']['query']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['1']['attention']['self']['query']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['1']['attention']['self']['value']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['1']['attention']['self']['value']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<64xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['1']['intermediate']['dense']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x64xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['1']['intermediate']['dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['1']['output']['LayerNorm']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['1']['output']['LayerNorm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['1']['output']['dense']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<64x32xf32> {jax.result_info = "result[1][0].nu['bert']['encoder']['layer']['1']['output']['dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['bert']['pooler']['dense']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].nu['bert']['pooler']['dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {}]>}, tensor<3xf32> {jax.result_info = "result[1][0].nu['classifier']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x3xf32> {jax.result_info = "result[1][0].nu['classifier']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<f32> {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, []>}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %1 = stablehlo.iota dim = 0 : tensor<8xi32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<8xi32>) -> tensor<8x8xi32>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
    %5 = stablehlo.convert %4 : (tensor<2x4xf32>) -> tensor<2x4xi32>
    %6:2 = call @_take(%arg4, %arg124) : (tensor<64x32xf32>, tensor<8x8xi32>) -> (tensor<8x8x32xf32>, tensor<8x8x1xi32>)
    %7:2 = call @_take_0(%arg2, %2) : (tensor<16x32xf32>, tensor<8x8xi32>) -> (tensor<8x8x32xf32>, tensor<8x8x1xi32>)
    %8:2 = call @_take_1(%arg3, %0) : (tensor<2x32xf32>, tensor<8x8xi32>) -> (tensor<8x8x32xf32>, tensor<8x8x1xi32>)
    %9 = stablehlo.add %6#0, %8#0 : tensor<8x8x32xf32>
    %10 = stablehlo.add %9, %7#0 : tensor<8x8x32xf32>
    %11 = chlo.square %10 : tensor<8x8x32xf32> -> tensor<8x8x32xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x8x32xf32>
    %13 = stablehlo.multiply %12, %10 : tensor<8x8x32xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.reduce(%10 init: %cst_2) applies stablehlo.add across dimensions = [2] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<8x8xf32>
    %cst_3 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %16 = stablehlo.divide %14, %15 : tensor<8x8xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.reduce(%11 init: %cst_4) applies stablehlo.add across dimensions = [2] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<8x8xf32>
    %cst_5 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %19 = stablehlo.divide %17, %18 : tensor<8x8xf32>
    %20 = chlo.square %16 : tensor<8x8xf32> -> tensor<8x8xf32>
    %cst_6 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %22 = stablehlo.multiply %21, %16 : tensor<8x8xf32>
    %23 = stablehlo.subtract %19, %20 : tensor<8x8xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %25 = stablehlo.maximum %24, %23 : tensor<8x8xf32>
    %26 = stablehlo.compare EQ, %23, %25, FLOAT : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %29 = stablehlo.select %26, %27, %28 : tensor<8x8xi1>, tensor<8x8xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %31 = stablehlo.compare EQ, %30, %25, FLOAT : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %cst_11 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %cst_12 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %34 = stablehlo.select %31, %32, %33 : tensor<8x8xi1>, tensor<8x8xf32>
    %35 = stablehlo.divide %29, %34 : tensor<8x8xf32>
    %36 = stablehlo.broadcast_in_dim %16, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
    %37 = stablehlo.broadcast_in_dim %25, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
    %38 = stablehlo.broadcast_in_dim %36, dims = [0, 1, 2] : (tensor<8x8x1xf32>) -> tensor<8x8x32xf32>
    %39 = stablehlo.subtract %10, %38 : tensor<8x8x32xf32>
    %cst_13 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<8x8x1xf32>
    %41 = stablehlo.add %37, %40 : tensor<8x8x1xf32>
    %42 = stablehlo.rsqrt %41 : tensor<8x8x1xf32>
    %43 = stablehlo.divide %42, %41 : tensor<8x8x1xf32>
    %cst_14 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<8x8x1xf32>
    %45 = stablehlo.multiply %44, %43 : tensor<8x8x1xf32>
    %46 = stablehlo.reshape %arg1 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %47 = stablehlo.broadcast_in_dim %42, dims = [0, 1, 2] : (tensor<8x8x1xf32>) -> tensor<8x8x32xf32>
    %48 = stablehlo.broadcast_in_dim %46, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %49 = stablehlo.multiply %47, %48 : tensor<8x8x32xf32>
    %50 = stablehlo.multiply %39, %49 : tensor<8x8x32xf32>
    %51 = stablehlo.reshape %arg0 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %52 = stablehlo.broadcast_in_dim %51, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %53 = stablehlo.add %50, %52 : tensor<8x8x32xf32>
    %54 = stablehlo.slice %5 [0:1, 0:4] : (tensor<2x4xi32>) -> tensor<1x4xi32>
    %55 = stablehlo.reshape %54 : (tensor<1x4xi32>) -> tensor<4xi32>
    %56 = stablehlo.dot_general %53, %arg12, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<32x32xf32>) -> tensor<8x8x32xf32>
    %57 = stablehlo.reshape %arg11 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %58 = stablehlo.broadcast_in_dim %57, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %59 = stablehlo.add %56, %58 : tensor<8x8x32xf32>
    %60 = stablehlo.dot_general %53, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<32x32xf32>) -> tensor<8x8x32xf32>
    %61 = stablehlo.reshape %arg9 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %62 = stablehlo.broadcast_in_dim %61, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %63 = stablehlo.add %60, %62 : tensor<8x8x32xf32>
    %64 = stablehlo.dot_general %53, %arg14, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<32x32xf32>) -> tensor<8x8x32xf32>
    %65 = stablehlo.reshape %arg13 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %67 = stablehlo.add %64, %66 : tensor<8x8x32xf32>
    %68 = stablehlo.reshape %59 : (tensor<8x8x32xf32>) -> tensor<8x8x4x8xf32>
    %69 = stablehlo.reshape %63 : (tensor<8x8x32xf32>) -> tensor<8x8x4x8xf32>
    %70 = stablehlo.reshape %67 : (tensor<8x8x32xf32>) -> tensor<8x8x4x8xf32>
    %71 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<8x8xi32>) -> tensor<8x1x1x8xi32>
    %c_15 = stablehlo.constant dense<0> : tensor<i32>
    %72 = stablehlo.broadcast_in_dim %c_15, dims = [] : (tensor<i32>) -> tensor<8x1x1x8xi32>
    %73 = stablehlo.compare GT, %71, %72, SIGNED : (tensor<8x1x1x8xi32>, tensor<8x1x1x8xi32>) -> tensor<8x1x1x8xi1>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %74 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<8x1x1x8xf32>
    %75 = stablehlo.convert %74 : tensor<8x1x1x8xf32>
    %cst_17 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %76 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<8x1x1x8xf32>
    %77 = stablehlo.select %73, %75, %76 : tensor<8x1x1x8xi1>, tensor<8x1x1x8xf32>
    %cst_18 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %78 = stablehlo.sqrt %cst_18 : tensor<f32>
    %79 = stablehlo.convert %78 : tensor<f32>
    %80 = stablehlo.broadcast_in_dim %79, dims = [] : (tensor<f32>) -> tensor<8x8x4x8xf32>
    %81 = stablehlo.divide %68, %80 : tensor<8x8x4x8xf32>
    %82 = stablehlo.dot_general %81, %69, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x8x4x8xf32>, tensor<8x8x4x8xf32>) -> tensor<8x4x8x8xf32>
    %83 = stablehlo.broadcast_in_dim %77, dims = [0, 1, 2, 3] : (tensor<8x1x1x8xf32>) -> tensor<8x4x8x8xf32>
    %84 = stablehlo.add %82, %83 : tensor<8x4x8x8xf32>
    %cst_19 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %85 = stablehlo.reduce(%84 init: %cst_19) applies stablehlo.maximum across dimensions = [3] : (tensor<8x4x8x8xf32>, tensor<f32>) -> tensor<8x4x8xf32>
    %cst_20 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %86 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<8x4x8xf32>
    %87 = stablehlo.maximum %86, %85 : tensor<8x4x8xf32>
    %88 = stablehlo.broadcast_in_dim %87, dims = [0, 1, 2] : (tensor<8x4x8xf32>) -> tensor<8x4x8x1xf32>
    %89 = stablehlo.broadcast_in_dim %88, dims = [0, 1, 2, 3] : (tensor<8x4x8x1xf32>) -> tensor<8x4x8x8xf32>
    %90 = stablehlo.subtract %84, %89 : tensor<8x4x8x8xf32>
    %91 = stablehlo.exponential %90 : tensor<8x4x8x8xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %92 = stablehlo.reduce(%91 init: %cst_21) applies stablehlo.add across dimensions = [3] : (tensor<8x4x8x8xf32>, tensor<f32>) -> tensor<8x4x8xf32>
    %93 = stablehlo.broadcast_in_dim %92, dims = [0, 1, 2] : (tensor<8x4x8xf32>) -> tensor<8x4x8x1xf32>
    %94 = stablehlo.broadcast_in_dim %93, dims = [0, 1, 2, 3] : (tensor<8x4x8x1xf32>) -> tensor<8x4x8x8xf32>
    %95 = stablehlo.divide %91, %94 : tensor<8x4x8x8xf32>
    %96 = stablehlo.multiply %93, %93 : tensor<8x4x8x1xf32>
    %cst_22 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %97 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<8x4x8x1xf32>
    %98 = stablehlo.divide %97, %96 : tensor<8x4x8x1xf32>
    %99 = stablehlo.convert %55 : (tensor<4xi32>) -> tensor<4xf32>
    %100 = stablehlo.convert %95 : tensor<8x4x8x8xf32>
    %101 = stablehlo.dot_general %99, %100, batching_dims = [0] x [1], contracting_dims = [] x [], precision = [DEFAULT, DEFAULT] : (tensor<4xf32>, tensor<8x4x8x8xf32>) -> tensor<4x8x8x8xf32>
    %102 = stablehlo.transpose %101, dims = [1, 0, 2, 3] : (tensor<4x8x8x8xf32>) -> tensor<8x4x8x8xf32>
    %103 = stablehlo.dot_general %70, %102, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x8x4x8xf32>, tensor<8x4x8x8xf32>) -> tensor<8x4x8x8xf32>
    %104 = stablehlo.transpose %103, dims = [0, 3, 1, 2] : (tensor<8x4x8x8xf32>) -> tensor<8x8x4x8xf32>
    %105 = stablehlo.reshape %104 : (tensor<8x8x4x8xf32>) -> tensor<8x8x32xf32>
    %106 = stablehlo.dot_general %105, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<32x32xf32>) -> tensor<8x8x32xf32>
    %107 = stablehlo.reshape %arg7 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %108 = stablehlo.broadcast_in_dim %107, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %109 = stablehlo.add %106, %108 : tensor<8x8x32xf32>
    %110 = stablehlo.add %109, %53 : tensor<8x8x32xf32>
    %111 = chlo.square %110 : tensor<8x8x32xf32> -> tensor<8x8x32xf32>
    %cst_23 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %112 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<8x8x32xf32>
    %113 = stablehlo.multiply %112, %110 : tensor<8x8x32xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %114 = stablehlo.reduce(%110 init: %cst_24) applies stablehlo.add across dimensions = [2] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<8x8xf32>
    %cst_25 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %115 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %116 = stablehlo.divide %114, %115 : tensor<8x8xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %117 = stablehlo.reduce(%111 init: %cst_26) applies stablehlo.add across dimensions = [2] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<8x8xf32>
    %cst_27 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %118 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %119 = stablehlo.divide %117, %118 : tensor<8x8xf32>
    %120 = chlo.square %116 : tensor<8x8xf32> -> tensor<8x8xf32>
    %cst_28 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %121 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %122 = stablehlo.multiply %121, %116 : tensor<8x8xf32>
    %123 = stablehlo.subtract %119, %120 : tensor<8x8xf32>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %124 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %125 = stablehlo.maximum %124, %123 : tensor<8x8xf32>
    %126 = stablehlo.compare EQ, %123, %125, FLOAT : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %cst_30 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %127 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %128 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %129 = stablehlo.select %126, %127, %128 : tensor<8x8xi1>, tensor<8x8xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %130 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %131 = stablehlo.compare EQ, %130, %125, FLOAT : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %cst_33 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %132 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %cst_34 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %133 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %134 = stablehlo.select %131, %132, %133 : tensor<8x8xi1>, tensor<8x8xf32>
    %135 = stablehlo.divide %129, %134 : tensor<8x8xf32>
    %136 = stablehlo.broadcast_in_dim %116, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
    %137 = stablehlo.broadcast_in_dim %125, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
    %138 = stablehlo.broadcast_in_dim %136, dims = [0, 1, 2] : (tensor<8x8x1xf32>) -> tensor<8x8x32xf32>
    %139 = stablehlo.subtract %110, %138 : tensor<8x8x32xf32>
    %cst_35 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %140 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<8x8x1xf32>
    %141 = stablehlo.add %137, %140 : tensor<8x8x1xf32>
    %142 = stablehlo.rsqrt %141 : tensor<8x8x1xf32>
    %143 = stablehlo.divide %142, %141 : tensor<8x8x1xf32>
    %cst_36 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %144 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<8x8x1xf32>
    %145 = stablehlo.multiply %144, %143 : tensor<8x8x1xf32>
    %146 = stablehlo.reshape %arg6 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %147 = stablehlo.broadcast_in_dim %142, dims = [0, 1, 2] : (tensor<8x8x1xf32>) -> tensor<8x8x32xf32>
    %148 = stablehlo.broadcast_in_dim %146, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %149 = stablehlo.multiply %147, %148 : tensor<8x8x32xf32>
    %150 = stablehlo.multiply %139, %149 : tensor<8x8x32xf32>
    %151 = stablehlo.reshape %arg5 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %152 = stablehlo.broadcast_in_dim %151, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %153 = stablehlo.add %150, %152 : tensor<8x8x32xf32>
    %154 = stablehlo.dot_general %153, %arg16, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<32x64xf32>) -> tensor<8x8x64xf32>
    %155 = stablehlo.reshape %arg15 : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %156 = stablehlo.broadcast_in_dim %155, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<8x8x64xf32>
    %157 = stablehlo.add %154, %156 : tensor<8x8x64xf32>
    %cst_37 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %158 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<8x8x64xf32>
    %159 = stablehlo.multiply %158, %157 : tensor<8x8x64xf32>
    %160 = stablehlo.negate %157 : tensor<8x8x64xf32>
    %cst_38 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %161 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<8x8x64xf32>
    %162 = stablehlo.multiply %160, %161 : tensor<8x8x64xf32>
    %163 = chlo.erfc %162 : tensor<8x8x64xf32> -> tensor<8x8x64xf32>
    %164 = chlo.square %162 : tensor<8x8x64xf32> -> tensor<8x8x64xf32>
    %165 = stablehlo.negate %164 : tensor<8x8x64xf32>
    %166 = stablehlo.exponential %165 : tensor<8x8x64xf32>
    %167 = stablehlo.multiply %159, %163 : tensor<8x8x64xf32>
    %168 = stablehlo.dot_general %167, %arg20, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8x64xf32>, tensor<64x32xf32>) -> tensor<8x8x32xf32>
    %169 = stablehlo.reshape %arg19 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %170 = stablehlo.broadcast_in_dim %169, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %171 = stablehlo.add %168, %170 : tensor<8x8x32xf32>
    %172 = stablehlo.add %171, %153 : tensor<8x8x32xf32>
    %173 = chlo.square %172 : tensor<8x8x32xf32> -> tensor<8x8x32xf32>
    %cst_39 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %174 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<8x8x32xf32>
    %175 = stablehlo.multiply %174, %172 : tensor<8x8x32xf32>
    %cst_40 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %176 = stablehlo.reduce(%172 init: %cst_40) applies stablehlo.add across dimensions = [2] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<8x8xf32>
    %cst_41 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %177 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %178 = stablehlo.divide %176, %177 : tensor<8x8xf32>
    %cst_42 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %179 = stablehlo.reduce(%173 init: %cst_42) applies stablehlo.add across dimensions = [2] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<8x8xf32>
    %cst_43 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %180 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %181 = stablehlo.divide %179, %180 : tensor<8x8xf32>
    %182 = chlo.square %178 : tensor<8x8xf32> -> tensor<8x8xf32>
    %cst_44 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %183 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %184 = stablehlo.multiply %183, %178 : tensor<8x8xf32>
    %185 = stablehlo.subtract %181, %182 : tensor<8x8xf32>
    %cst_45 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %186 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %187 = stablehlo.maximum %186, %185 : tensor<8x8xf32>
    %188 = stablehlo.compare EQ, %185, %187, FLOAT : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %cst_46 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %189 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %cst_47 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %190 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %191 = stablehlo.select %188, %189, %190 : tensor<8x8xi1>, tensor<8x8xf32>
    %cst_48 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %192 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %193 = stablehlo.compare EQ, %192, %187, FLOAT : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %cst_49 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %194 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %cst_50 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %195 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %196 = stablehlo.select %193, %194, %195 : tensor<8x8xi1>, tensor<8x8xf32>
    %197 = stablehlo.divide %191, %196 : tensor<8x8xf32>
    %198 = stablehlo.broadcast_in_dim %178, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
    %199 = stablehlo.broadcast_in_dim %187, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
    %200 = stablehlo.broadcast_in_dim %198, dims = [0, 1, 2] : (tensor<8x8x1xf32>) -> tensor<8x8x32xf32>
    %201 = stablehlo.subtract %172, %200 : tensor<8x8x32xf32>
    %cst_51 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %202 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<8x8x1xf32>
    %203 = stablehlo.add %199, %202 : tensor<8x8x1xf32>
    %204 = stablehlo.rsqrt %203 : tensor<8x8x1xf32>
    %205 = stablehlo.divide %204, %203 : tensor<8x8x1xf32>
    %cst_52 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %206 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<8x8x1xf32>
    %207 = stablehlo.multiply %206, %205 : tensor<8x8x1xf32>
    %208 = stablehlo.reshape %arg18 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %209 = stablehlo.broadcast_in_dim %204, dims = [0, 1, 2] : (tensor<8x8x1xf32>) -> tensor<8x8x32xf32>
    %210 = stablehlo.broadcast_in_dim %208, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %211 = stablehlo.multiply %209, %210 : tensor<8x8x32xf32>
    %212 = stablehlo.multiply %201, %211 : tensor<8x8x32xf32>
    %213 = stablehlo.reshape %arg17 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %214 = stablehlo.broadcast_in_dim %213, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %215 = stablehlo.add %212, %214 : tensor<8x8x32xf32>
    %216 = stablehlo.slice %5 [1:2, 0:4] : (tensor<2x4xi32>) -> tensor<1x4xi32>
    %217 = stablehlo.reshape %216 : (tensor<1x4xi32>) -> tensor<4xi32>
    %218 = stablehlo.dot_general %215, %arg28, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<32x32xf32>) -> tensor<8x8x32xf32>
    %219 = stablehlo.reshape %arg27 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %220 = stablehlo.broadcast_in_dim %219, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %221 = stablehlo.add %218, %220 : tensor<8x8x32xf32>
    %222 = stablehlo.dot_general %215, %arg26, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<32x32xf32>) -> tensor<8x8x32xf32>
    %223 = stablehlo.reshape %arg25 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %224 = stablehlo.broadcast_in_dim %223, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %225 = stablehlo.add %222, %224 : tensor<8x8x32xf32>
    %226 = stablehlo.dot_general %215, %arg30, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<32x32xf32>) -> tensor<8x8x32xf32>
    %227 = stablehlo.reshape %arg29 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %228 = stablehlo.broadcast_in_dim %227, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %229 = stablehlo.add %226, %228 : tensor<8x8x32xf32>
    %230 = stablehlo.reshape %221 : (tensor<8x8x32xf32>) -> tensor<8x8x4x8xf32>
    %231 = stablehlo.reshape %225 : (tensor<8x8x32xf32>) -> tensor<8x8x4x8xf32>
    %232 = stablehlo.reshape %229 : (tensor<8x8x32xf32>) -> tensor<8x8x4x8xf32>
    %233 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<8x8xi32>) -> tensor<8x1x1x8xi32>
    %c_53 = stablehlo.constant dense<0> : tensor<i32>
    %234 = stablehlo.broadcast_in_dim %c_53, dims = [] : (tensor<i32>) -> tensor<8x1x1x8xi32>
    %235 = stablehlo.compare GT, %233, %234, SIGNED : (tensor<8x1x1x8xi32>, tensor<8x1x1x8xi32>) -> tensor<8x1x1x8xi1>
    %cst_54 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %236 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<8x1x1x8xf32>
    %237 = stablehlo.convert %236 : tensor<8x1x1x8xf32>
    %cst_55 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %238 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f32>) -> tensor<8x1x1x8xf32>
    %239 = stablehlo.select %235, %237, %238 : tensor<8x1x1x8xi1>, tensor<8x1x1x8xf32>
    %cst_56 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %240 = stablehlo.sqrt %cst_56 : tensor<f32>
    %241 = stablehlo.convert %240 : tensor<f32>
    %242 = stablehlo.broadcast_in_dim %241, dims = [] : (tensor<f32>) -> tensor<8x8x4x8xf32>
    %243 = stablehlo.divide %230, %242 : tensor<8x8x4x8xf32>
    %244 = stablehlo.dot_general %243, %231, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x8x4x8xf32>, tensor<8x8x4x8xf32>) -> tensor<8x4x8x8xf32>
    %245 = stablehlo.broadcast_in_dim %239, dims = [0, 1, 2, 3] : (tensor<8x1x1x8xf32>) -> tensor<8x4x8x8xf32>
    %246 = stablehlo.add %244, %245 : tensor<8x4x8x8xf32>
    %cst_57 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %247 = stablehlo.reduce(%246 init: %cst_57) applies stablehlo.maximum across dimensions = [3] : (tensor<8x4x8x8xf32>, tensor<f32>) -> tensor<8x4x8xf32>
    %cst_58 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %248 = stablehlo.broadcast_in_dim %cst_58, dims = [] : (tensor<f32>) -> tensor<8x4x8xf32>
    %249 = stablehlo.maximum %248, %247 : tensor<8x4x8xf32>
    %250 = stablehlo.broadcast_in_dim %249, dims = [0, 1, 2] : (tensor<8x4x8xf32>) -> tensor<8x4x8x1xf32>
    %251 = stablehlo.broadcast_in_dim %250, dims = [0, 1, 2, 3] : (tensor<8x4x8x1xf32>) -> tensor<8x4x8x8xf32>
    %252 = stablehlo.subtract %246, %251 : tensor<8x4x8x8xf32>
    %253 = stablehlo.exponential %252 : tensor<8x4x8x8xf32>
    %cst_59 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %254 = stablehlo.reduce(%253 init: %cst_59) applies stablehlo.add across dimensions = [3] : (tensor<8x4x8x8xf32>, tensor<f32>) -> tensor<8x4x8xf32>
    %255 = stablehlo.broadcast_in_dim %254, dims = [0, 1, 2] : (tensor<8x4x8xf32>) -> tensor<8x4x8x1xf32>
    %256 = stablehlo.broadcast_in_dim %255, dims = [0, 1, 2, 3] : (tensor<8x4x8x1xf32>) -> tensor<8x4x8x8xf32>
    %257 = stablehlo.divide %253, %256 : tensor<8x4x8x8xf32>
    %258 = stablehlo.multiply %255, %255 : tensor<8x4x8x1xf32>
    %cst_60 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %259 = stablehlo.broadcast_in_dim %cst_60, dims = [] : (tensor<f32>) -> tensor<8x4x8x1xf32>
    %260 = stablehlo.divide %259, %258 : tensor<8x4x8x1xf32>
    %261 = stablehlo.convert %217 : (tensor<4xi32>) -> tensor<4xf32>
    %262 = stablehlo.convert %257 : tensor<8x4x8x8xf32>
    %263 = stablehlo.dot_general %261, %262, batching_dims = [0] x [1], contracting_dims = [] x [], precision = [DEFAULT, DEFAULT] : (tensor<4xf32>, tensor<8x4x8x8xf32>) -> tensor<4x8x8x8xf32>
    %264 = stablehlo.transpose %263, dims = [1, 0, 2, 3] : (tensor<4x8x8x8xf32>) -> tensor<8x4x8x8xf32>
    %265 = stablehlo.dot_general %232, %264, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x8x4x8xf32>, tensor<8x4x8x8xf32>) -> tensor<8x4x8x8xf32>
    %266 = stablehlo.transpose %265, dims = [0, 3, 1, 2] : (tensor<8x4x8x8xf32>) -> tensor<8x8x4x8xf32>
    %267 = stablehlo.reshape %266 : (tensor<8x8x4x8xf32>) -> tensor<8x8x32xf32>
    %268 = stablehlo.dot_general %267, %arg24, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<32x32xf32>) -> tensor<8x8x32xf32>
    %269 = stablehlo.reshape %arg23 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %270 = stablehlo.broadcast_in_dim %269, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %271 = stablehlo.add %268, %270 : tensor<8x8x32xf32>
    %272 = stablehlo.add %271, %215 : tensor<8x8x32xf32>
    %273 = chlo.square %272 : tensor<8x8x32xf32> -> tensor<8x8x32xf32>
    %cst_61 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %274 = stablehlo.broadcast_in_dim %cst_61, dims = [] : (tensor<f32>) -> tensor<8x8x32xf32>
    %275 = stablehlo.multiply %274, %272 : tensor<8x8x32xf32>
    %cst_62 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %276 = stablehlo.reduce(%272 init: %cst_62) applies stablehlo.add across dimensions = [2] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<8x8xf32>
    %cst_63 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %277 = stablehlo.broadcast_in_dim %cst_63, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %278 = stablehlo.divide %276, %277 : tensor<8x8xf32>
    %cst_64 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %279 = stablehlo.reduce(%273 init: %cst_64) applies stablehlo.add across dimensions = [2] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<8x8xf32>
    %cst_65 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %280 = stablehlo.broadcast_in_dim %cst_65, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %281 = stablehlo.divide %279, %280 : tensor<8x8xf32>
    %282 = chlo.square %278 : tensor<8x8xf32> -> tensor<8x8xf32>
    %cst_66 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %283 = stablehlo.broadcast_in_dim %cst_66, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %284 = stablehlo.multiply %283, %278 : tensor<8x8xf32>
    %285 = stablehlo.subtract %281, %282 : tensor<8x8xf32>
    %cst_67 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %286 = stablehlo.broadcast_in_dim %cst_67, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %287 = stablehlo.maximum %286, %285 : tensor<8x8xf32>
    %288 = stablehlo.compare EQ, %285, %287, FLOAT : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %cst_68 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %289 = stablehlo.broadcast_in_dim %cst_68, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %cst_69 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %290 = stablehlo.broadcast_in_dim %cst_69, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %291 = stablehlo.select %288, %289, %290 : tensor<8x8xi1>, tensor<8x8xf32>
    %cst_70 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %292 = stablehlo.broadcast_in_dim %cst_70, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %293 = stablehlo.compare EQ, %292, %287, FLOAT : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %cst_71 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %294 = stablehlo.broadcast_in_dim %cst_71, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %cst_72 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %295 = stablehlo.broadcast_in_dim %cst_72, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %296 = stablehlo.select %293, %294, %295 : tensor<8x8xi1>, tensor<8x8xf32>
    %297 = stablehlo.divide %291, %296 : tensor<8x8xf32>
    %298 = stablehlo.broadcast_in_dim %278, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
    %299 = stablehlo.broadcast_in_dim %287, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
    %300 = stablehlo.broadcast_in_dim %298, dims = [0, 1, 2] : (tensor<8x8x1xf32>) -> tensor<8x8x32xf32>
    %301 = stablehlo.subtract %272, %300 : tensor<8x8x32xf32>
    %cst_73 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %302 = stablehlo.broadcast_in_dim %cst_73, dims = [] : (tensor<f32>) -> tensor<8x8x1xf32>
    %303 = stablehlo.add %299, %302 : tensor<8x8x1xf32>
    %304 = stablehlo.rsqrt %303 : tensor<8x8x1xf32>
    %305 = stablehlo.divide %304, %303 : tensor<8x8x1xf32>
    %cst_74 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %306 = stablehlo.broadcast_in_dim %cst_74, dims = [] : (tensor<f32>) -> tensor<8x8x1xf32>
    %307 = stablehlo.multiply %306, %305 : tensor<8x8x1xf32>
    %308 = stablehlo.reshape %arg22 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %309 = stablehlo.broadcast_in_dim %304, dims = [0, 1, 2] : (tensor<8x8x1xf32>) -> tensor<8x8x32xf32>
    %310 = stablehlo.broadcast_in_dim %308, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %311 = stablehlo.multiply %309, %310 : tensor<8x8x32xf32>
    %312 = stablehlo.multiply %301, %311 : tensor<8x8x32xf32>
    %313 = stablehlo.reshape %arg21 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %314 = stablehlo.broadcast_in_dim %313, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %315 = stablehlo.add %312, %314 : tensor<8x8x32xf32>
    %316 = stablehlo.dot_general %315, %arg32, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<32x64xf32>) -> tensor<8x8x64xf32>
    %317 = stablehlo.reshape %arg31 : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %318 = stablehlo.broadcast_in_dim %317, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<8x8x64xf32>
    %319 = stablehlo.add %316, %318 : tensor<8x8x64xf32>
    %cst_75 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %320 = stablehlo.broadcast_in_dim %cst_75, dims = [] : (tensor<f32>) -> tensor<8x8x64xf32>
    %321 = stablehlo.multiply %320, %319 : tensor<8x8x64xf32>
    %322 = stablehlo.negate %319 : tensor<8x8x64xf32>
    %cst_76 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %323 = stablehlo.broadcast_in_dim %cst_76, dims = [] : (tensor<f32>) -> tensor<8x8x64xf32>
    %324 = stablehlo.multiply %322, %323 : tensor<8x8x64xf32>
    %325 = chlo.erfc %324 : tensor<8x8x64xf32> -> tensor<8x8x64xf32>
    %326 = chlo.square %324 : tensor<8x8x64xf32> -> tensor<8x8x64xf32>
    %327 = stablehlo.negate %326 : tensor<8x8x64xf32>
    %328 = stablehlo.exponential %327 : tensor<8x8x64xf32>
    %329 = stablehlo.multiply %321, %325 : tensor<8x8x64xf32>
    %330 = stablehlo.dot_general %329, %arg36, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8x64xf32>, tensor<64x32xf32>) -> tensor<8x8x32xf32>
    %331 = stablehlo.reshape %arg35 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %332 = stablehlo.broadcast_in_dim %331, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %333 = stablehlo.add %330, %332 : tensor<8x8x32xf32>
    %334 = stablehlo.add %333, %315 : tensor<8x8x32xf32>
    %335 = chlo.square %334 : tensor<8x8x32xf32> -> tensor<8x8x32xf32>
    %cst_77 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %336 = stablehlo.broadcast_in_dim %cst_77, dims = [] : (tensor<f32>) -> tensor<8x8x32xf32>
    %337 = stablehlo.multiply %336, %334 : tensor<8x8x32xf32>
    %cst_78 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %338 = stablehlo.reduce(%334 init: %cst_78) applies stablehlo.add across dimensions = [2] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<8x8xf32>
    %cst_79 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %339 = stablehlo.broadcast_in_dim %cst_79, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %340 = stablehlo.divide %338, %339 : tensor<8x8xf32>
    %cst_80 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %341 = stablehlo.reduce(%335 init: %cst_80) applies stablehlo.add across dimensions = [2] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<8x8xf32>
    %cst_81 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %342 = stablehlo.broadcast_in_dim %cst_81, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %343 = stablehlo.divide %341, %342 : tensor<8x8xf32>
    %344 = chlo.square %340 : tensor<8x8xf32> -> tensor<8x8xf32>
    %cst_82 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %345 = stablehlo.broadcast_in_dim %cst_82, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %346 = stablehlo.multiply %345, %340 : tensor<8x8xf32>
    %347 = stablehlo.subtract %343, %344 : tensor<8x8xf32>
    %cst_83 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %348 = stablehlo.broadcast_in_dim %cst_83, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %349 = stablehlo.maximum %348, %347 : tensor<8x8xf32>
    %350 = stablehlo.compare EQ, %347, %349, FLOAT : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %cst_84 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %351 = stablehlo.broadcast_in_dim %cst_84, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %cst_85 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %352 = stablehlo.broadcast_in_dim %cst_85, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %353 = stablehlo.select %350, %351, %352 : tensor<8x8xi1>, tensor<8x8xf32>
    %cst_86 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %354 = stablehlo.broadcast_in_dim %cst_86, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %355 = stablehlo.compare EQ, %354, %349, FLOAT : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %cst_87 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %356 = stablehlo.broadcast_in_dim %cst_87, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %cst_88 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %357 = stablehlo.broadcast_in_dim %cst_88, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %358 = stablehlo.select %355, %356, %357 : tensor<8x8xi1>, tensor<8x8xf32>
    %359 = stablehlo.divide %353, %358 : tensor<8x8xf32>
    %360 = stablehlo.broadcast_in_dim %340, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
    %361 = stablehlo.broadcast_in_dim %349, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
    %362 = stablehlo.broadcast_in_dim %360, dims = [0, 1, 2] : (tensor<8x8x1xf32>) -> tensor<8x8x32xf32>
    %363 = stablehlo.subtract %334, %362 : tensor<8x8x32xf32>
    %cst_89 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %364 = stablehlo.broadcast_in_dim %cst_89, dims = [] : (tensor<f32>) -> tensor<8x8x1xf32>
    %365 = stablehlo.add %361, %364 : tensor<8x8x1xf32>
    %366 = stablehlo.rsqrt %365 : tensor<8x8x1xf32>
    %367 = stablehlo.divide %366, %365 : tensor<8x8x1xf32>
    %cst_90 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %368 = stablehlo.broadcast_in_dim %cst_90, dims = [] : (tensor<f32>) -> tensor<8x8x1xf32>
    %369 = stablehlo.multiply %368, %367 : tensor<8x8x1xf32>
    %370 = stablehlo.reshape %arg34 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %371 = stablehlo.broadcast_in_dim %366, dims = [0, 1, 2] : (tensor<8x8x1xf32>) -> tensor<8x8x32xf32>
    %372 = stablehlo.broadcast_in_dim %370, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %373 = stablehlo.multiply %371, %372 : tensor<8x8x32xf32>
    %374 = stablehlo.multiply %363, %373 : tensor<8x8x32xf32>
    %375 = stablehlo.reshape %arg33 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %376 = stablehlo.broadcast_in_dim %375, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %377 = stablehlo.add %374, %376 : tensor<8x8x32xf32>
    %378 = stablehlo.slice %377 [0:8, 0:1, 0:32] : (tensor<8x8x32xf32>) -> tensor<8x1x32xf32>
    %379 = stablehlo.reshape %378 : (tensor<8x1x32xf32>) -> tensor<8x32xf32>
    %380 = stablehlo.dot_general %379, %arg38, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x32xf32>) -> tensor<8x32xf32>
    %381 = stablehlo.reshape %arg37 : (tensor<32xf32>) -> tensor<1x32xf32>
    %382 = stablehlo.broadcast_in_dim %381, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<8x32xf32>
    %383 = stablehlo.add %380, %382 : tensor<8x32xf32>
    %384 = stablehlo.tanh %383 : tensor<8x32xf32>
    %cst_91 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %385 = stablehlo.broadcast_in_dim %cst_91, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %386 = stablehlo.subtract %385, %384 : tensor<8x32xf32>
    %387 = stablehlo.dot_general %384, %arg40, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x3xf32>) -> tensor<8x3xf32>
    %388 = stablehlo.reshape %arg39 : (tensor<3xf32>) -> tensor<1x3xf32>
    %389 = stablehlo.broadcast_in_dim %388, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<8x3xf32>
    %390 = stablehlo.add %387, %389 : tensor<8x3xf32>
    %391 = stablehlo.broadcast_in_dim %arg125, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %392:2 = call @take_along_axis(%390, %391) : (tensor<8x3xf32>, tensor<8x1xi32>) -> (tensor<8x1xf32>, tensor<8x1x1xi32>)
    %c_92 = stablehlo.constant dense<0> : tensor<i32>
    %393:2 = call @_take_2(%392#0, %c_92) : (tensor<8x1xf32>, tensor<i32>) -> (tensor<8xf32>, tensor<1xi32>)
    %cst_93 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %394 = stablehlo.reduce(%390 init: %cst_93) applies stablehlo.maximum across dimensions = [1] : (tensor<8x3xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_94 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %395 = stablehlo.broadcast_in_dim %cst_94, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %396 = stablehlo.maximum %395, %394 : tensor<8xf32>
    %397 = stablehlo.is_finite %396 : (tensor<8xf32>) -> tensor<8xi1>
    %cst_95 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %398 = stablehlo.broadcast_in_dim %cst_95, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %399 = stablehlo.select %397, %396, %398 : tensor<8xi1>, tensor<8xf32>
    %400 = stablehlo.broadcast_in_dim %399, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %401 = stablehlo.broadcast_in_dim %400, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x3xf32>
    %402 = stablehlo.subtract %390, %401 : tensor<8x3xf32>
    %403 = stablehlo.exponential %402 : tensor<8x3xf32>
    %cst_96 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %404 = stablehlo.reduce(%403 init: %cst_96) applies stablehlo.add across dimensions = [1] : (tensor<8x3xf32>, tensor<f32>) -> tensor<8xf32>
    %405 = stablehlo.abs %404 : tensor<8xf32>
    %cst_97 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %406 = stablehlo.broadcast_in_dim %cst_97, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %407 = stablehlo.compare GE, %404, %406, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %408 = stablehlo.log %405 : tensor<8xf32>
    %409 = stablehlo.add %408, %399 : tensor<8xf32>
    %410 = stablehlo.subtract %409, %393#0 : tensor<8xf32>
    %cst_98 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %411 = stablehlo.reduce(%410 init: %cst_98) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %cst_99 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %412 = stablehlo.divide %411, %cst_99 : tensor<f32>
    %cst_100 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_101 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %413 = stablehlo.divide %cst_100, %cst_101 : tensor<f32>
    %414 = stablehlo.broadcast_in_dim %413, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %415 = stablehlo.negate %414 : tensor<8xf32>
    %416 = stablehlo.divide %414, %405 : tensor<8xf32>
    %cst_102 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %417 = stablehlo.broadcast_in_dim %cst_102, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %418 = stablehlo.select %407, %417, %416 : tensor<8xi1>, tensor<8xf32>
    %419 = stablehlo.select %407, %416, %417 : tensor<8xi1>, tensor<8xf32>
    %420 = stablehlo.negate %418 : tensor<8xf32>
    %421 = stablehlo.add %419, %420 : tensor<8xf32>
    %422 = stablehlo.broadcast_in_dim %421, dims = [0] : (tensor<8xf32>) -> tensor<8x3xf32>
    %423 = stablehlo.multiply %422, %403 : tensor<8x3xf32>
    %424 = call @_take_4(%393#1, %415) : (tensor<1xi32>, tensor<8xf32>) -> tensor<8x1xf32>
    %425 = call @take_along_axis_5(%392#1, %424) : (tensor<8x1x1xi32>, tensor<8x1xf32>) -> tensor<8x3xf32>
    %426 = stablehlo.add %423, %425 : tensor<8x3xf32>
    %cst_103 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %427 = stablehlo.reduce(%426 init: %cst_103) applies stablehlo.add across dimensions = [0] : (tensor<8x3xf32>, tensor<f32>) -> tensor<3xf32>
    %428 = stablehlo.reshape %427 : (tensor<3xf32>) -> tensor<1x3xf32>
    %429 = stablehlo.reshape %428 : (tensor<1x3xf32>) -> tensor<3xf32>
    %430 = stablehlo.dot_general %426, %384, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x3xf32>, tensor<8x32xf32>) -> tensor<3x32xf32>
    %431 = stablehlo.transpose %430, dims = [1, 0] : (tensor<3x32xf32>) -> tensor<32x3xf32>
    %432 = stablehlo.dot_general %426, %arg40, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x3xf32>, tensor<32x3xf32>) -> tensor<8x32xf32>
    %433 = stablehlo.multiply %432, %386 : tensor<8x32xf32>
    %434 = stablehlo.multiply %433, %384 : tensor<8x32xf32>
    %435 = stablehlo.add %433, %434 : tensor<8x32xf32>
    %cst_104 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %436 = stablehlo.reduce(%435 init: %cst_104) applies stablehlo.add across dimensions = [0] : (tensor<8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %437 = stablehlo.reshape %436 : (tensor<32xf32>) -> tensor<1x32xf32>
    %438 = stablehlo.reshape %437 : (tensor<1x32xf32>) -> tensor<32xf32>
    %439 = stablehlo.dot_general %435, %379, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<32x32xf32>
    %440 = stablehlo.transpose %439, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %441 = stablehlo.dot_general %435, %arg38, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x32xf32>) -> tensor<8x32xf32>
    %442 = stablehlo.broadcast_in_dim %441, dims = [0, 2] : (tensor<8x32xf32>) -> tensor<8x1x32xf32>
    %cst_105 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %443 = stablehlo.pad %442, %cst_105, low = [0, 0, 0], high = [0, 7, 0], interior = [0, 0, 0] : (tensor<8x1x32xf32>, tensor<f32>) -> tensor<8x8x32xf32>
    %cst_106 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %444 = stablehlo.reduce(%443 init: %cst_106) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %445 = stablehlo.reshape %444 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %446 = stablehlo.reshape %445 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %447 = stablehlo.multiply %363, %443 : tensor<8x8x32xf32>
    %448 = stablehlo.multiply %443, %373 : tensor<8x8x32xf32>
    %449 = stablehlo.broadcast_in_dim %366, dims = [0, 1, 2] : (tensor<8x8x1xf32>) -> tensor<8x8x32xf32>
    %450 = stablehlo.multiply %449, %447 : tensor<8x8x32xf32>
    %cst_107 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %451 = stablehlo.reduce(%450 init: %cst_107) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %452 = stablehlo.reshape %451 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %453 = stablehlo.broadcast_in_dim %370, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %454 = stablehlo.multiply %447, %453 : tensor<8x8x32xf32>
    %cst_108 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %455 = stablehlo.reduce(%454 init: %cst_108) applies stablehlo.add across dimensions = [2] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<8x8xf32>
    %456 = stablehlo.reshape %455 : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
    %457 = stablehlo.reshape %452 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %458 = stablehlo.multiply %456, %369 : tensor<8x8x1xf32>
    %459 = stablehlo.negate %448 : tensor<8x8x32xf32>
    %cst_109 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %460 = stablehlo.reduce(%459 init: %cst_109) applies stablehlo.add across dimensions = [2] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<8x8xf32>
    %461 = stablehlo.reshape %460 : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
    %cst_110 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %462 = stablehlo.reduce(%458 init: %cst_110) applies stablehlo.add across dimensions = [2] : (tensor<8x8x1xf32>, tensor<f32>) -> tensor<8x8xf32>
    %cst_111 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %463 = stablehlo.reduce(%461 init: %cst_111) applies stablehlo.add across dimensions = [2] : (tensor<8x8x1xf32>, tensor<f32>) -> tensor<8x8xf32>
    %464 = stablehlo.multiply %462, %359 : tensor<8x8xf32>
    %465 = stablehlo.negate %464 : tensor<8x8xf32>
    %466 = stablehlo.multiply %465, %346 : tensor<8x8xf32>
    %467 = stablehlo.add %463, %466 : tensor<8x8xf32>
    %cst_112 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %468 = stablehlo.broadcast_in_dim %cst_112, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %469 = stablehlo.divide %464, %468 : tensor<8x8xf32>
    %470 = stablehlo.broadcast_in_dim %469, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8x32xf32>
    %cst_113 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %471 = stablehlo.broadcast_in_dim %cst_113, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %472 = stablehlo.divide %467, %471 : tensor<8x8xf32>
    %473 = stablehlo.broadcast_in_dim %472, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8x32xf32>
    %474 = stablehlo.add %448, %473 : tensor<8x8x32xf32>
    %475 = stablehlo.multiply %470, %337 : tensor<8x8x32xf32>
    %476 = stablehlo.add %474, %475 : tensor<8x8x32xf32>
    %cst_114 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %477 = stablehlo.reduce(%476 init: %cst_114) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %478 = stablehlo.reshape %477 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %479 = stablehlo.reshape %478 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %480 = stablehlo.dot_general %476, %329, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<8x8x64xf32>) -> tensor<32x64xf32>
    %481 = stablehlo.transpose %480, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %482 = stablehlo.dot_general %476, %arg36, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<64x32xf32>) -> tensor<8x8x64xf32>
    %483 = stablehlo.multiply %321, %482 : tensor<8x8x64xf32>
    %484 = stablehlo.multiply %482, %325 : tensor<8x8x64xf32>
    %cst_115 = stablehlo.constant dense<-1.12837923> : tensor<f32>
    %485 = stablehlo.broadcast_in_dim %cst_115, dims = [] : (tensor<f32>) -> tensor<8x8x64xf32>
    %486 = stablehlo.multiply %485, %483 : tensor<8x8x64xf32>
    %487 = stablehlo.multiply %486, %328 : tensor<8x8x64xf32>
    %cst_116 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %488 = stablehlo.broadcast_in_dim %cst_116, dims = [] : (tensor<f32>) -> tensor<8x8x64xf32>
    %489 = stablehlo.multiply %487, %488 : tensor<8x8x64xf32>
    %490 = stablehlo.negate %489 : tensor<8x8x64xf32>
    %cst_117 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %491 = stablehlo.broadcast_in_dim %cst_117, dims = [] : (tensor<f32>) -> tensor<8x8x64xf32>
    %492 = stablehlo.multiply %491, %484 : tensor<8x8x64xf32>
    %493 = stablehlo.add %490, %492 : tensor<8x8x64xf32>
    %cst_118 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %494 = stablehlo.reduce(%493 init: %cst_118) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x64xf32>, tensor<f32>) -> tensor<64xf32>
    %495 = stablehlo.reshape %494 : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %496 = stablehlo.reshape %495 : (tensor<1x1x64xf32>) -> tensor<64xf32>
    %497 = stablehlo.dot_general %493, %315, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x64xf32>, tensor<8x8x32xf32>) -> tensor<64x32xf32>
    %498 = stablehlo.transpose %497, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %499 = stablehlo.dot_general %493, %arg32, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x64xf32>, tensor<32x64xf32>) -> tensor<8x8x32xf32>
    %500 = stablehlo.add %476, %499 : tensor<8x8x32xf32>
    %cst_119 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %501 = stablehlo.reduce(%500 init: %cst_119) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %502 = stablehlo.reshape %501 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %503 = stablehlo.reshape %502 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %504 = stablehlo.multiply %301, %500 : tensor<8x8x32xf32>
    %505 = stablehlo.multiply %500, %311 : tensor<8x8x32xf32>
    %506 = stablehlo.broadcast_in_dim %304, dims = [0, 1, 2] : (tensor<8x8x1xf32>) -> tensor<8x8x32xf32>
    %507 = stablehlo.multiply %506, %504 : tensor<8x8x32xf32>
    %cst_120 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %508 = stablehlo.reduce(%507 init: %cst_120) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %509 = stablehlo.reshape %508 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %510 = stablehlo.broadcast_in_dim %308, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %511 = stablehlo.multiply %504, %510 : tensor<8x8x32xf32>
    %cst_121 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %512 = stablehlo.reduce(%511 init: %cst_121) applies stablehlo.add across dimensions = [2] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<8x8xf32>
    %513 = stablehlo.reshape %512 : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
    %514 = stablehlo.reshape %509 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %515 = stablehlo.multiply %513, %307 : tensor<8x8x1xf32>
    %516 = stablehlo.negate %505 : tensor<8x8x32xf32>
    %cst_122 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %517 = stablehlo.reduce(%516 init: %cst_122) applies stablehlo.add across dimensions = [2] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<8x8xf32>
    %518 = stablehlo.reshape %517 : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
    %cst_123 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %519 = stablehlo.reduce(%515 init: %cst_123) applies stablehlo.add across dimensions = [2] : (tensor<8x8x1xf32>, tensor<f32>) -> tensor<8x8xf32>
    %cst_124 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %520 = stablehlo.reduce(%518 init: %cst_124) applies stablehlo.add across dimensions = [2] : (tensor<8x8x1xf32>, tensor<f32>) -> tensor<8x8xf32>
    %521 = stablehlo.multiply %519, %297 : tensor<8x8xf32>
    %522 = stablehlo.negate %521 : tensor<8x8xf32>
    %523 = stablehlo.multiply %522, %284 : tensor<8x8xf32>
    %524 = stablehlo.add %520, %523 : tensor<8x8xf32>
    %cst_125 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %525 = stablehlo.broadcast_in_dim %cst_125, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %526 = stablehlo.divide %521, %525 : tensor<8x8xf32>
    %527 = stablehlo.broadcast_in_dim %526, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8x32xf32>
    %cst_126 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %528 = stablehlo.broadcast_in_dim %cst_126, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %529 = stablehlo.divide %524, %528 : tensor<8x8xf32>
    %530 = stablehlo.broadcast_in_dim %529, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8x32xf32>
    %531 = stablehlo.add %505, %530 : tensor<8x8x32xf32>
    %532 = stablehlo.multiply %527, %275 : tensor<8x8x32xf32>
    %533 = stablehlo.add %531, %532 : tensor<8x8x32xf32>
    %cst_127 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %534 = stablehlo.reduce(%533 init: %cst_127) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %535 = stablehlo.reshape %534 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %536 = stablehlo.reshape %535 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %537 = stablehlo.dot_general %533, %267, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<32x32xf32>
    %538 = stablehlo.transpose %537, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %539 = stablehlo.dot_general %533, %arg24, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<32x32xf32>) -> tensor<8x8x32xf32>
    %540 = stablehlo.reshape %539 : (tensor<8x8x32xf32>) -> tensor<8x8x4x8xf32>
    %541 = stablehlo.transpose %540, dims = [0, 2, 3, 1] : (tensor<8x8x4x8xf32>) -> tensor<8x4x8x8xf32>
    %542 = stablehlo.dot_general %541, %232, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x4x8x8xf32>, tensor<8x8x4x8xf32>) -> tensor<8x4x8x8xf32>
    %543 = stablehlo.dot_general %541, %264, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x4x8x8xf32>, tensor<8x4x8x8xf32>) -> tensor<8x4x8x8xf32>
    %544 = stablehlo.transpose %543, dims = [0, 3, 1, 2] : (tensor<8x4x8x8xf32>) -> tensor<8x8x4x8xf32>
    %545 = stablehlo.transpose %542, dims = [1, 0, 2, 3] : (tensor<8x4x8x8xf32>) -> tensor<4x8x8x8xf32>
    %546 = stablehlo.convert %545 : tensor<4x8x8x8xf32>
    %547 = stablehlo.convert %217 : (tensor<4xi32>) -> tensor<4xf32>
    %548 = stablehlo.dot_general %546, %547, batching_dims = [0] x [0], contracting_dims = [] x [], precision = [DEFAULT, DEFAULT] : (tensor<4x8x8x8xf32>, tensor<4xf32>) -> tensor<4x8x8x8xf32>
    %549 = stablehlo.transpose %548, dims = [1, 0, 2, 3] : (tensor<4x8x8x8xf32>) -> tensor<8x4x8x8xf32>
    %550 = stablehlo.broadcast_in_dim %260, dims = [0, 1, 2, 3] : (tensor<8x4x8x1xf32>) -> tensor<8x4x8x8xf32>
    %551 = stablehlo.multiply %549, %550 : tensor<8x4x8x8xf32>
    %552 = stablehlo.multiply %551, %253 : tensor<8x4x8x8xf32>
    %cst_128 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %553 = stablehlo.reduce(%552 init: %cst_128) applies stablehlo.add across dimensions = [3] : (tensor<8x4x8x8xf32>, tensor<f32>) -> tensor<8x4x8xf32>
    %554 = stablehlo.reshape %553 : (tensor<8x4x8xf32>) -> tensor<8x4x8x1xf32>
    %555 = stablehlo.negate %554 : tensor<8x4x8x1xf32>
    %556 = stablehlo.broadcast_in_dim %255, dims = [0, 1, 2, 3] : (tensor<8x4x8x1xf32>) -> tensor<8x4x8x8xf32>
    %557 = stablehlo.divide %549, %556 : tensor<8x4x8x8xf32>
    %cst_129 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %558 = stablehlo.reduce(%555 init: %cst_129) applies stablehlo.add across dimensions = [3] : (tensor<8x4x8x1xf32>, tensor<f32>) -> tensor<8x4x8xf32>
    %559 = stablehlo.broadcast_in_dim %558, dims = [0, 1, 2] : (tensor<8x4x8xf32>) -> tensor<8x4x8x8xf32>
    %560 = stablehlo.add %557, %559 : tensor<8x4x8x8xf32>
    %561 = stablehlo.multiply %560, %253 : tensor<8x4x8x8xf32>
    %562 = stablehlo.dot_general %561, %243, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x8x8xf32>, tensor<8x8x4x8xf32>) -> tensor<8x4x8x8xf32>
    %563 = stablehlo.transpose %562, dims = [0, 2, 1, 3] : (tensor<8x4x8x8xf32>) -> tensor<8x8x4x8xf32>
    %564 = stablehlo.dot_general %561, %231, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x8x8xf32>, tensor<8x8x4x8xf32>) -> tensor<8x4x8x8xf32>
    %565 = stablehlo.transpose %564, dims = [0, 2, 1, 3] : (tensor<8x4x8x8xf32>) -> tensor<8x8x4x8xf32>
    %566 = stablehlo.broadcast_in_dim %241, dims = [] : (tensor<f32>) -> tensor<8x8x4x8xf32>
    %567 = stablehlo.divide %565, %566 : tensor<8x8x4x8xf32>
    %568 = stablehlo.reshape %544 : (tensor<8x8x4x8xf32>) -> tensor<8x8x32xf32>
    %569 = stablehlo.reshape %563 : (tensor<8x8x4x8xf32>) -> tensor<8x8x32xf32>
    %570 = stablehlo.reshape %567 : (tensor<8x8x4x8xf32>) -> tensor<8x8x32xf32>
    %cst_130 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %571 = stablehlo.reduce(%568 init: %cst_130) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %572 = stablehlo.reshape %571 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %573 = stablehlo.reshape %572 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %574 = stablehlo.dot_general %568, %215, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<32x32xf32>
    %575 = stablehlo.transpose %574, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %576 = stablehlo.dot_general %568, %arg30, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<32x32xf32>) -> tensor<8x8x32xf32>
    %577 = stablehlo.add %533, %576 : tensor<8x8x32xf32>
    %cst_131 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %578 = stablehlo.reduce(%569 init: %cst_131) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %579 = stablehlo.reshape %578 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %580 = stablehlo.reshape %579 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %581 = stablehlo.dot_general %569, %215, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<32x32xf32>
    %582 = stablehlo.transpose %581, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %583 = stablehlo.dot_general %569, %arg26, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<32x32xf32>) -> tensor<8x8x32xf32>
    %584 = stablehlo.add %577, %583 : tensor<8x8x32xf32>
    %cst_132 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %585 = stablehlo.reduce(%570 init: %cst_132) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %586 = stablehlo.reshape %585 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %587 = stablehlo.reshape %586 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %588 = stablehlo.dot_general %570, %215, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<32x32xf32>
    %589 = stablehlo.transpose %588, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %590 = stablehlo.dot_general %570, %arg28, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<32x32xf32>) -> tensor<8x8x32xf32>
    %591 = stablehlo.add %584, %590 : tensor<8x8x32xf32>
    %cst_133 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %592 = stablehlo.reduce(%591 init: %cst_133) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %593 = stablehlo.reshape %592 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %594 = stablehlo.reshape %593 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %595 = stablehlo.multiply %201, %591 : tensor<8x8x32xf32>
    %596 = stablehlo.multiply %591, %211 : tensor<8x8x32xf32>
    %597 = stablehlo.broadcast_in_dim %204, dims = [0, 1, 2] : (tensor<8x8x1xf32>) -> tensor<8x8x32xf32>
    %598 = stablehlo.multiply %597, %595 : tensor<8x8x32xf32>
    %cst_134 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %599 = stablehlo.reduce(%598 init: %cst_134) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %600 = stablehlo.reshape %599 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %601 = stablehlo.broadcast_in_dim %208, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %602 = stablehlo.multiply %595, %601 : tensor<8x8x32xf32>
    %cst_135 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %603 = stablehlo.reduce(%602 init: %cst_135) applies stablehlo.add across dimensions = [2] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<8x8xf32>
    %604 = stablehlo.reshape %603 : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
    %605 = stablehlo.reshape %600 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %606 = stablehlo.multiply %604, %207 : tensor<8x8x1xf32>
    %607 = stablehlo.negate %596 : tensor<8x8x32xf32>
    %cst_136 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %608 = stablehlo.reduce(%607 init: %cst_136) applies stablehlo.add across dimensions = [2] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<8x8xf32>
    %609 = stablehlo.reshape %608 : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
    %cst_137 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %610 = stablehlo.reduce(%606 init: %cst_137) applies stablehlo.add across dimensions = [2] : (tensor<8x8x1xf32>, tensor<f32>) -> tensor<8x8xf32>
    %cst_138 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %611 = stablehlo.reduce(%609 init: %cst_138) applies stablehlo.add across dimensions = [2] : (tensor<8x8x1xf32>, tensor<f32>) -> tensor<8x8xf32>
    %612 = stablehlo.multiply %610, %197 : tensor<8x8xf32>
    %613 = stablehlo.negate %612 : tensor<8x8xf32>
    %614 = stablehlo.multiply %613, %184 : tensor<8x8xf32>
    %615 = stablehlo.add %611, %614 : tensor<8x8xf32>
    %cst_139 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %616 = stablehlo.broadcast_in_dim %cst_139, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %617 = stablehlo.divide %612, %616 : tensor<8x8xf32>
    %618 = stablehlo.broadcast_in_dim %617, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8x32xf32>
    %cst_140 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %619 = stablehlo.broadcast_in_dim %cst_140, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %620 = stablehlo.divide %615, %619 : tensor<8x8xf32>
    %621 = stablehlo.broadcast_in_dim %620, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8x32xf32>
    %622 = stablehlo.add %596, %621 : tensor<8x8x32xf32>
    %623 = stablehlo.multiply %618, %175 : tensor<8x8x32xf32>
    %624 = stablehlo.add %622, %623 : tensor<8x8x32xf32>
    %cst_141 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %625 = stablehlo.reduce(%624 init: %cst_141) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %626 = stablehlo.reshape %625 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %627 = stablehlo.reshape %626 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %628 = stablehlo.dot_general %624, %167, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<8x8x64xf32>) -> tensor<32x64xf32>
    %629 = stablehlo.transpose %628, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %630 = stablehlo.dot_general %624, %arg20, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<64x32xf32>) -> tensor<8x8x64xf32>
    %631 = stablehlo.multiply %159, %630 : tensor<8x8x64xf32>
    %632 = stablehlo.multiply %630, %163 : tensor<8x8x64xf32>
    %cst_142 = stablehlo.constant dense<-1.12837923> : tensor<f32>
    %633 = stablehlo.broadcast_in_dim %cst_142, dims = [] : (tensor<f32>) -> tensor<8x8x64xf32>
    %634 = stablehlo.multiply %633, %631 : tensor<8x8x64xf32>
    %635 = stablehlo.multiply %634, %166 : tensor<8x8x64xf32>
    %cst_143 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %636 = stablehlo.broadcast_in_dim %cst_143, dims = [] : (tensor<f32>) -> tensor<8x8x64xf32>
    %637 = stablehlo.multiply %635, %636 : tensor<8x8x64xf32>
    %638 = stablehlo.negate %637 : tensor<8x8x64xf32>
    %cst_144 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %639 = stablehlo.broadcast_in_dim %cst_144, dims = [] : (tensor<f32>) -> tensor<8x8x64xf32>
    %640 = stablehlo.multiply %639, %632 : tensor<8x8x64xf32>
    %641 = stablehlo.add %638, %640 : tensor<8x8x64xf32>
    %cst_145 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %642 = stablehlo.reduce(%641 init: %cst_145) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x64xf32>, tensor<f32>) -> tensor<64xf32>
    %643 = stablehlo.reshape %642 : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %644 = stablehlo.reshape %643 : (tensor<1x1x64xf32>) -> tensor<64xf32>
    %645 = stablehlo.dot_general %641, %153, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x64xf32>, tensor<8x8x32xf32>) -> tensor<64x32xf32>
    %646 = stablehlo.transpose %645, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %647 = stablehlo.dot_general %641, %arg16, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x64xf32>, tensor<32x64xf32>) -> tensor<8x8x32xf32>
    %648 = stablehlo.add %624, %647 : tensor<8x8x32xf32>
    %cst_146 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %649 = stablehlo.reduce(%648 init: %cst_146) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %650 = stablehlo.reshape %649 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %651 = stablehlo.reshape %650 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %652 = stablehlo.multiply %139, %648 : tensor<8x8x32xf32>
    %653 = stablehlo.multiply %648, %149 : tensor<8x8x32xf32>
    %654 = stablehlo.broadcast_in_dim %142, dims = [0, 1, 2] : (tensor<8x8x1xf32>) -> tensor<8x8x32xf32>
    %655 = stablehlo.multiply %654, %652 : tensor<8x8x32xf32>
    %cst_147 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %656 = stablehlo.reduce(%655 init: %cst_147) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %657 = stablehlo.reshape %656 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %658 = stablehlo.broadcast_in_dim %146, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %659 = stablehlo.multiply %652, %658 : tensor<8x8x32xf32>
    %cst_148 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %660 = stablehlo.reduce(%659 init: %cst_148) applies stablehlo.add across dimensions = [2] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<8x8xf32>
    %661 = stablehlo.reshape %660 : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
    %662 = stablehlo.reshape %657 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %663 = stablehlo.multiply %661, %145 : tensor<8x8x1xf32>
    %664 = stablehlo.negate %653 : tensor<8x8x32xf32>
    %cst_149 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %665 = stablehlo.reduce(%664 init: %cst_149) applies stablehlo.add across dimensions = [2] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<8x8xf32>
    %666 = stablehlo.reshape %665 : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
    %cst_150 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %667 = stablehlo.reduce(%663 init: %cst_150) applies stablehlo.add across dimensions = [2] : (tensor<8x8x1xf32>, tensor<f32>) -> tensor<8x8xf32>
    %cst_151 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %668 = stablehlo.reduce(%666 init: %cst_151) applies stablehlo.add across dimensions = [2] : (tensor<8x8x1xf32>, tensor<f32>) -> tensor<8x8xf32>
    %669 = stablehlo.multiply %667, %135 : tensor<8x8xf32>
    %670 = stablehlo.negate %669 : tensor<8x8xf32>
    %671 = stablehlo.multiply %670, %122 : tensor<8x8xf32>
    %672 = stablehlo.add %668, %671 : tensor<8x8xf32>
    %cst_152 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %673 = stablehlo.broadcast_in_dim %cst_152, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %674 = stablehlo.divide %669, %673 : tensor<8x8xf32>
    %675 = stablehlo.broadcast_in_dim %674, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8x32xf32>
    %cst_153 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %676 = stablehlo.broadcast_in_dim %cst_153, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %677 = stablehlo.divide %672, %676 : tensor<8x8xf32>
    %678 = stablehlo.broadcast_in_dim %677, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8x32xf32>
    %679 = stablehlo.add %653, %678 : tensor<8x8x32xf32>
    %680 = stablehlo.multiply %675, %113 : tensor<8x8x32xf32>
    %681 = stablehlo.add %679, %680 : tensor<8x8x32xf32>
    %cst_154 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %682 = stablehlo.reduce(%681 init: %cst_154) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %683 = stablehlo.reshape %682 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %684 = stablehlo.reshape %683 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %685 = stablehlo.dot_general %681, %105, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<32x32xf32>
    %686 = stablehlo.transpose %685, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %687 = stablehlo.dot_general %681, %arg8, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<32x32xf32>) -> tensor<8x8x32xf32>
    %688 = stablehlo.reshape %687 : (tensor<8x8x32xf32>) -> tensor<8x8x4x8xf32>
    %689 = stablehlo.transpose %688, dims = [0, 2, 3, 1] : (tensor<8x8x4x8xf32>) -> tensor<8x4x8x8xf32>
    %690 = stablehlo.dot_general %689, %70, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x4x8x8xf32>, tensor<8x8x4x8xf32>) -> tensor<8x4x8x8xf32>
    %691 = stablehlo.dot_general %689, %102, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x4x8x8xf32>, tensor<8x4x8x8xf32>) -> tensor<8x4x8x8xf32>
    %692 = stablehlo.transpose %691, dims = [0, 3, 1, 2] : (tensor<8x4x8x8xf32>) -> tensor<8x8x4x8xf32>
    %693 = stablehlo.transpose %690, dims = [1, 0, 2, 3] : (tensor<8x4x8x8xf32>) -> tensor<4x8x8x8xf32>
    %694 = stablehlo.convert %693 : tensor<4x8x8x8xf32>
    %695 = stablehlo.convert %55 : (tensor<4xi32>) -> tensor<4xf32>
    %696 = stablehlo.dot_general %694, %695, batching_dims = [0] x [0], contracting_dims = [] x [], precision = [DEFAULT, DEFAULT] : (tensor<4x8x8x8xf32>, tensor<4xf32>) -> tensor<4x8x8x8xf32>
    %697 = stablehlo.transpose %696, dims = [1, 0, 2, 3] : (tensor<4x8x8x8xf32>) -> tensor<8x4x8x8xf32>
    %698 = stablehlo.broadcast_in_dim %98, dims = [0, 1, 2, 3] : (tensor<8x4x8x1xf32>) -> tensor<8x4x8x8xf32>
    %699 = stablehlo.multiply %697, %698 : tensor<8x4x8x8xf32>
    %700 = stablehlo.multiply %699, %91 : tensor<8x4x8x8xf32>
    %cst_155 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %701 = stablehlo.reduce(%700 init: %cst_155) applies stablehlo.add across dimensions = [3] : (tensor<8x4x8x8xf32>, tensor<f32>) -> tensor<8x4x8xf32>
    %702 = stablehlo.reshape %701 : (tensor<8x4x8xf32>) -> tensor<8x4x8x1xf32>
    %703 = stablehlo.negate %702 : tensor<8x4x8x1xf32>
    %704 = stablehlo.broadcast_in_dim %93, dims = [0, 1, 2, 3] : (tensor<8x4x8x1xf32>) -> tensor<8x4x8x8xf32>
    %705 = stablehlo.divide %697, %704 : tensor<8x4x8x8xf32>
    %cst_156 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %706 = stablehlo.reduce(%703 init: %cst_156) applies stablehlo.add across dimensions = [3] : (tensor<8x4x8x1xf32>, tensor<f32>) -> tensor<8x4x8xf32>
    %707 = stablehlo.broadcast_in_dim %706, dims = [0, 1, 2] : (tensor<8x4x8xf32>) -> tensor<8x4x8x8xf32>
    %708 = stablehlo.add %705, %707 : tensor<8x4x8x8xf32>
    %709 = stablehlo.multiply %708, %91 : tensor<8x4x8x8xf32>
    %710 = stablehlo.dot_general %709, %81, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x8x8xf32>, tensor<8x8x4x8xf32>) -> tensor<8x4x8x8xf32>
    %711 = stablehlo.transpose %710, dims = [0, 2, 1, 3] : (tensor<8x4x8x8xf32>) -> tensor<8x8x4x8xf32>
    %712 = stablehlo.dot_general %709, %69, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x8x8xf32>, tensor<8x8x4x8xf32>) -> tensor<8x4x8x8xf32>
    %713 = stablehlo.transpose %712, dims = [0, 2, 1, 3] : (tensor<8x4x8x8xf32>) -> tensor<8x8x4x8xf32>
    %714 = stablehlo.broadcast_in_dim %79, dims = [] : (tensor<f32>) -> tensor<8x8x4x8xf32>
    %715 = stablehlo.divide %713, %714 : tensor<8x8x4x8xf32>
    %716 = stablehlo.reshape %692 : (tensor<8x8x4x8xf32>) -> tensor<8x8x32xf32>
    %717 = stablehlo.reshape %711 : (tensor<8x8x4x8xf32>) -> tensor<8x8x32xf32>
    %718 = stablehlo.reshape %715 : (tensor<8x8x4x8xf32>) -> tensor<8x8x32xf32>
    %cst_157 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %719 = stablehlo.reduce(%716 init: %cst_157) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %720 = stablehlo.reshape %719 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %721 = stablehlo.reshape %720 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %722 = stablehlo.dot_general %716, %53, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<32x32xf32>
    %723 = stablehlo.transpose %722, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %724 = stablehlo.dot_general %716, %arg14, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<32x32xf32>) -> tensor<8x8x32xf32>
    %725 = stablehlo.add %681, %724 : tensor<8x8x32xf32>
    %cst_158 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %726 = stablehlo.reduce(%717 init: %cst_158) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %727 = stablehlo.reshape %726 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %728 = stablehlo.reshape %727 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %729 = stablehlo.dot_general %717, %53, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<32x32xf32>
    %730 = stablehlo.transpose %729, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %731 = stablehlo.dot_general %717, %arg10, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<32x32xf32>) -> tensor<8x8x32xf32>
    %732 = stablehlo.add %725, %731 : tensor<8x8x32xf32>
    %cst_159 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %733 = stablehlo.reduce(%718 init: %cst_159) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %734 = stablehlo.reshape %733 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %735 = stablehlo.reshape %734 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %736 = stablehlo.dot_general %718, %53, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<32x32xf32>
    %737 = stablehlo.transpose %736, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %738 = stablehlo.dot_general %718, %arg12, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x8x32xf32>, tensor<32x32xf32>) -> tensor<8x8x32xf32>
    %739 = stablehlo.add %732, %738 : tensor<8x8x32xf32>
    %cst_160 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %740 = stablehlo.reduce(%739 init: %cst_160) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %741 = stablehlo.reshape %740 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %742 = stablehlo.reshape %741 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %743 = stablehlo.multiply %39, %739 : tensor<8x8x32xf32>
    %744 = stablehlo.multiply %739, %49 : tensor<8x8x32xf32>
    %745 = stablehlo.broadcast_in_dim %42, dims = [0, 1, 2] : (tensor<8x8x1xf32>) -> tensor<8x8x32xf32>
    %746 = stablehlo.multiply %745, %743 : tensor<8x8x32xf32>
    %cst_161 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %747 = stablehlo.reduce(%746 init: %cst_161) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %748 = stablehlo.reshape %747 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %749 = stablehlo.broadcast_in_dim %46, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x8x32xf32>
    %750 = stablehlo.multiply %743, %749 : tensor<8x8x32xf32>
    %cst_162 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %751 = stablehlo.reduce(%750 init: %cst_162) applies stablehlo.add across dimensions = [2] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<8x8xf32>
    %752 = stablehlo.reshape %751 : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
    %753 = stablehlo.reshape %748 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %754 = stablehlo.multiply %752, %45 : tensor<8x8x1xf32>
    %755 = stablehlo.negate %744 : tensor<8x8x32xf32>
    %cst_163 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %756 = stablehlo.reduce(%755 init: %cst_163) applies stablehlo.add across dimensions = [2] : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<8x8xf32>
    %757 = stablehlo.reshape %756 : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
    %cst_164 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %758 = stablehlo.reduce(%754 init: %cst_164) applies stablehlo.add across dimensions = [2] : (tensor<8x8x1xf32>, tensor<f32>) -> tensor<8x8xf32>
    %cst_165 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %759 = stablehlo.reduce(%757 init: %cst_165) applies stablehlo.add across dimensions = [2] : (tensor<8x8x1xf32>, tensor<f32>) -> tensor<8x8xf32>
    %760 = stablehlo.multiply %758, %35 : tensor<8x8xf32>
    %761 = stablehlo.negate %760 : tensor<8x8xf32>
    %762 = stablehlo.multiply %761, %22 : tensor<8x8xf32>
    %763 = stablehlo.add %759, %762 : tensor<8x8xf32>
    %cst_166 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %764 = stablehlo.broadcast_in_dim %cst_166, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %765 = stablehlo.divide %760, %764 : tensor<8x8xf32>
    %766 = stablehlo.broadcast_in_dim %765, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8x32xf32>
    %cst_167 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %767 = stablehlo.broadcast_in_dim %cst_167, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %768 = stablehlo.divide %763, %767 : tensor<8x8xf32>
    %769 = stablehlo.broadcast_in_dim %768, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8x32xf32>
    %770 = stablehlo.add %744, %769 : tensor<8x8x32xf32>
    %771 = stablehlo.multiply %766, %13 : tensor<8x8x32xf32>
    %772 = stablehlo.add %770, %771 : tensor<8x8x32xf32>
    %773 = call @_take_6(%8#1, %772) : (tensor<8x8x1xi32>, tensor<8x8x32xf32>) -> tensor<2x32xf32>
    %774 = call @_take_7(%7#1, %772) : (tensor<8x8x1xi32>, tensor<8x8x32xf32>) -> tensor<16x32xf32>
    %775 = call @_take_8(%6#1, %772) : (tensor<8x8x1xi32>, tensor<8x8x32xf32>) -> tensor<64x32xf32>
    %cst_168 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %776 = stablehlo.broadcast_in_dim %cst_168, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %777 = stablehlo.multiply %776, %742 : tensor<32xf32>
    %cst_169 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %778 = stablehlo.broadcast_in_dim %cst_169, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %779 = stablehlo.multiply %778, %arg42 : tensor<32xf32>
    %780 = stablehlo.add %777, %779 : tensor<32xf32>
    %cst_170 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %781 = stablehlo.broadcast_in_dim %cst_170, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %782 = stablehlo.multiply %781, %753 : tensor<32xf32>
    %cst_171 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %783 = stablehlo.broadcast_in_dim %cst_171, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %784 = stablehlo.multiply %783, %arg43 : tensor<32xf32>
    %785 = stablehlo.add %782, %784 : tensor<32xf32>
    %cst_172 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %786 = stablehlo.broadcast_in_dim %cst_172, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %787 = stablehlo.multiply %786, %774 : tensor<16x32xf32>
    %cst_173 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %788 = stablehlo.broadcast_in_dim %cst_173, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %789 = stablehlo.multiply %788, %arg44 : tensor<16x32xf32>
    %790 = stablehlo.add %787, %789 : tensor<16x32xf32>
    %cst_174 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %791 = stablehlo.broadcast_in_dim %cst_174, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %792 = stablehlo.multiply %791, %773 : tensor<2x32xf32>
    %cst_175 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %793 = stablehlo.broadcast_in_dim %cst_175, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %794 = stablehlo.multiply %793, %arg45 : tensor<2x32xf32>
    %795 = stablehlo.add %792, %794 : tensor<2x32xf32>
    %cst_176 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %796 = stablehlo.broadcast_in_dim %cst_176, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %797 = stablehlo.multiply %796, %775 : tensor<64x32xf32>
    %cst_177 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %798 = stablehlo.broadcast_in_dim %cst_177, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %799 = stablehlo.multiply %798, %arg46 : tensor<64x32xf32>
    %800 = stablehlo.add %797, %799 : tensor<64x32xf32>
    %cst_178 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %801 = stablehlo.broadcast_in_dim %cst_178, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %802 = stablehlo.multiply %801, %651 : tensor<32xf32>
    %cst_179 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %803 = stablehlo.broadcast_in_dim %cst_179, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %804 = stablehlo.multiply %803, %arg47 : tensor<32xf32>
    %805 = stablehlo.add %802, %804 : tensor<32xf32>
    %cst_180 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %806 = stablehlo.broadcast_in_dim %cst_180, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %807 = stablehlo.multiply %806, %662 : tensor<32xf32>
    %cst_181 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %808 = stablehlo.broadcast_in_dim %cst_181, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %809 = stablehlo.multiply %808, %arg48 : tensor<32xf32>
    %810 = stablehlo.add %807, %809 : tensor<32xf32>
    %cst_182 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %811 = stablehlo.broadcast_in_dim %cst_182, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %812 = stablehlo.multiply %811, %684 : tensor<32xf32>
    %cst_183 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %813 = stablehlo.broadcast_in_dim %cst_183, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %814 = stablehlo.multiply %813, %arg49 : tensor<32xf32>
    %815 = stablehlo.add %812, %814 : tensor<32xf32>
    %cst_184 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %816 = stablehlo.broadcast_in_dim %cst_184, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %817 = stablehlo.multiply %816, %686 : tensor<32x32xf32>
    %cst_185 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %818 = stablehlo.broadcast_in_dim %cst_185, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %819 = stablehlo.multiply %818, %arg50 : tensor<32x32xf32>
    %820 = stablehlo.add %817, %819 : tensor<32x32xf32>
    %cst_186 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %821 = stablehlo.broadcast_in_dim %cst_186, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %822 = stablehlo.multiply %821, %728 : tensor<32xf32>
    %cst_187 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %823 = stablehlo.broadcast_in_dim %cst_187, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %824 = stablehlo.multiply %823, %arg51 : tensor<32xf32>
    %825 = stablehlo.add %822, %824 : tensor<32xf32>
    %cst_188 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %826 = stablehlo.broadcast_in_dim %cst_188, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %827 = stablehlo.multiply %826, %730 : tensor<32x32xf32>
    %cst_189 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %828 = stablehlo.broadcast_in_dim %cst_189, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %829 = stablehlo.multiply %828, %arg52 : tensor<32x32xf32>
    %830 = stablehlo.add %827, %829 : tensor<32x32xf32>
    %cst_190 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %831 = stablehlo.broadcast_in_dim %cst_190, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %832 = stablehlo.multiply %831, %735 : tensor<32xf32>
    %cst_191 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %833 = stablehlo.broadcast_in_dim %cst_191, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %834 = stablehlo.multiply %833, %arg53 : tensor<32xf32>
    %835 = stablehlo.add %832, %834 : tensor<32xf32>
    %cst_192 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %836 = stablehlo.broadcast_in_dim %cst_192, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %837 = stablehlo.multiply %836, %737 : tensor<32x32xf32>
    %cst_193 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %838 = stablehlo.broadcast_in_dim %cst_193, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %839 = stablehlo.multiply %838, %arg54 : tensor<32x32xf32>
    %840 = stablehlo.add %837, %839 : tensor<32x32xf32>
    %cst_194 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %841 = stablehlo.broadcast_in_dim %cst_194, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %842 = stablehlo.multiply %841, %721 : tensor<32xf32>
    %cst_195 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %843 = stablehlo.broadcast_in_dim %cst_195, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %844 = stablehlo.multiply %843, %arg55 : tensor<32xf32>
    %845 = stablehlo.add %842, %844 : tensor<32xf32>
    %cst_196 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %846 = stablehlo.broadcast_in_dim %cst_196, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %847 = stablehlo.multiply %846, %723 : tensor<32x32xf32>
    %cst_197 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %848 = stablehlo.broadcast_in_dim %cst_197, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %849 = stablehlo.multiply %848, %arg56 : tensor<32x32xf32>
    %850 = stablehlo.add %847, %849 : tensor<32x32xf32>
    %cst_198 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %851 = stablehlo.broadcast_in_dim %cst_198, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %852 = stablehlo.multiply %851, %644 : tensor<64xf32>
    %cst_199 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %853 = stablehlo.broadcast_in_dim %cst_199, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %854 = stablehlo.multiply %853, %arg57 : tensor<64xf32>
    %855 = stablehlo.add %852, %854 : tensor<64xf32>
    %cst_200 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %856 = stablehlo.broadcast_in_dim %cst_200, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %857 = stablehlo.multiply %856, %646 : tensor<32x64xf32>
    %cst_201 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %858 = stablehlo.broadcast_in_dim %cst_201, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %859 = stablehlo.multiply %858, %arg58 : tensor<32x64xf32>
    %860 = stablehlo.add %857, %859 : tensor<32x64xf32>
    %cst_202 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %861 = stablehlo.broadcast_in_dim %cst_202, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %862 = stablehlo.multiply %861, %594 : tensor<32xf32>
    %cst_203 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %863 = stablehlo.broadcast_in_dim %cst_203, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %864 = stablehlo.multiply %863, %arg59 : tensor<32xf32>
    %865 = stablehlo.add %862, %864 : tensor<32xf32>
    %cst_204 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %866 = stablehlo.broadcast_in_dim %cst_204, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %867 = stablehlo.multiply %866, %605 : tensor<32xf32>
    %cst_205 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %868 = stablehlo.broadcast_in_dim %cst_205, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %869 = stablehlo.multiply %868, %arg60 : tensor<32xf32>
    %870 = stablehlo.add %867, %869 : tensor<32xf32>
    %cst_206 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %871 = stablehlo.broadcast_in_dim %cst_206, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %872 = stablehlo.multiply %871, %627 : tensor<32xf32>
    %cst_207 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %873 = stablehlo.broadcast_in_dim %cst_207, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %874 = stablehlo.multiply %873, %arg61 : tensor<32xf32>
    %875 = stablehlo.add %872, %874 : tensor<32xf32>
    %cst_208 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %876 = stablehlo.broadcast_in_dim %cst_208, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %877 = stablehlo.multiply %876, %629 : tensor<64x32xf32>
    %cst_209 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %878 = stablehlo.broadcast_in_dim %cst_209, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %879 = stablehlo.multiply %878, %arg62 : tensor<64x32xf32>
    %880 = stablehlo.add %877, %879 : tensor<64x32xf32>
    %cst_210 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %881 = stablehlo.broadcast_in_dim %cst_210, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %882 = stablehlo.multiply %881, %503 : tensor<32xf32>
    %cst_211 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %883 = stablehlo.broadcast_in_dim %cst_211, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %884 = stablehlo.multiply %883, %arg63 : tensor<32xf32>
    %885 = stablehlo.add %882, %884 : tensor<32xf32>
    %cst_212 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %886 = stablehlo.broadcast_in_dim %cst_212, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %887 = stablehlo.multiply %886, %514 : tensor<32xf32>
    %cst_213 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %888 = stablehlo.broadcast_in_dim %cst_213, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %889 = stablehlo.multiply %888, %arg64 : tensor<32xf32>
    %890 = stablehlo.add %887, %889 : tensor<32xf32>
    %cst_214 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %891 = stablehlo.broadcast_in_dim %cst_214, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %892 = stablehlo.multiply %891, %536 : tensor<32xf32>
    %cst_215 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %893 = stablehlo.broadcast_in_dim %cst_215, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %894 = stablehlo.multiply %893, %arg65 : tensor<32xf32>
    %895 = stablehlo.add %892, %894 : tensor<32xf32>
    %cst_216 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %896 = stablehlo.broadcast_in_dim %cst_216, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %897 = stablehlo.multiply %896, %538 : tensor<32x32xf32>
    %cst_217 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %898 = stablehlo.broadcast_in_dim %cst_217, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %899 = stablehlo.multiply %898, %arg66 : tensor<32x32xf32>
    %900 = stablehlo.add %897, %899 : tensor<32x32xf32>
    %cst_218 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %901 = stablehlo.broadcast_in_dim %cst_218, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %902 = stablehlo.multiply %901, %580 : tensor<32xf32>
    %cst_219 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %903 = stablehlo.broadcast_in_dim %cst_219, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %904 = stablehlo.multiply %903, %arg67 : tensor<32xf32>
    %905 = stablehlo.add %902, %904 : tensor<32xf32>
    %cst_220 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %906 = stablehlo.broadcast_in_dim %cst_220, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %907 = stablehlo.multiply %906, %582 : tensor<32x32xf32>
    %cst_221 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %908 = stablehlo.broadcast_in_dim %cst_221, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %909 = stablehlo.multiply %908, %arg68 : tensor<32x32xf32>
    %910 = stablehlo.add %907, %909 : tensor<32x32xf32>
    %cst_222 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %911 = stablehlo.broadcast_in_dim %cst_222, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %912 = stablehlo.multiply %911, %587 : tensor<32xf32>
    %cst_223 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %913 = stablehlo.broadcast_in_dim %cst_223, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %914 = stablehlo.multiply %913, %arg69 : tensor<32xf32>
    %915 = stablehlo.add %912, %914 : tensor<32xf32>
    %cst_224 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %916 = stablehlo.broadcast_in_dim %cst_224, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %917 = stablehlo.multiply %916, %589 : tensor<32x32xf32>
    %cst_225 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %918 = stablehlo.broadcast_in_dim %cst_225, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %919 = stablehlo.multiply %918, %arg70 : tensor<32x32xf32>
    %920 = stablehlo.add %917, %919 : tensor<32x32xf32>
    %cst_226 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %921 = stablehlo.broadcast_in_dim %cst_226, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %922 = stablehlo.multiply %921, %573 : tensor<32xf32>
    %cst_227 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %923 = stablehlo.broadcast_in_dim %cst_227, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %924 = stablehlo.multiply %923, %arg71 : tensor<32xf32>
    %925 = stablehlo.add %922, %924 : tensor<32xf32>
    %cst_228 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %926 = stablehlo.broadcast_in_dim %cst_228, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %927 = stablehlo.multiply %926, %575 : tensor<32x32xf32>
    %cst_229 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %928 = stablehlo.broadcast_in_dim %cst_229, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %929 = stablehlo.multiply %928, %arg72 : tensor<32x32xf32>
    %930 = stablehlo.add %927, %929 : tensor<32x32xf32>
    %cst_230 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %931 = stablehlo.broadcast_in_dim %cst_230, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %932 = stablehlo.multiply %931, %496 : tensor<64xf32>
    %cst_231 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %933 = stablehlo.broadcast_in_dim %cst_231, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %934 = stablehlo.multiply %933, %arg73 : tensor<64xf32>
    %935 = stablehlo.add %932, %934 : tensor<64xf32>
    %cst_232 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %936 = stablehlo.broadcast_in_dim %cst_232, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %937 = stablehlo.multiply %936, %498 : tensor<32x64xf32>
    %cst_233 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %938 = stablehlo.broadcast_in_dim %cst_233, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %939 = stablehlo.multiply %938, %arg74 : tensor<32x64xf32>
    %940 = stablehlo.add %937, %939 : tensor<32x64xf32>
    %cst_234 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %941 = stablehlo.broadcast_in_dim %cst_234, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %942 = stablehlo.multiply %941, %446 : tensor<32xf32>
    %cst_235 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %943 = stablehlo.broadcast_in_dim %cst_235, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %944 = stablehlo.multiply %943, %arg75 : tensor<32xf32>
    %945 = stablehlo.add %942, %944 : tensor<32xf32>
    %cst_236 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %946 = stablehlo.broadcast_in_dim %cst_236, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %947 = stablehlo.multiply %946, %457 : tensor<32xf32>
    %cst_237 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %948 = stablehlo.broadcast_in_dim %cst_237, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %949 = stablehlo.multiply %948, %arg76 : tensor<32xf32>
    %950 = stablehlo.add %947, %949 : tensor<32xf32>
    %cst_238 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %951 = stablehlo.broadcast_in_dim %cst_238, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %952 = stablehlo.multiply %951, %479 : tensor<32xf32>
    %cst_239 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %953 = stablehlo.broadcast_in_dim %cst_239, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %954 = stablehlo.multiply %953, %arg77 : tensor<32xf32>
    %955 = stablehlo.add %952, %954 : tensor<32xf32>
    %cst_240 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %956 = stablehlo.broadcast_in_dim %cst_240, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %957 = stablehlo.multiply %956, %481 : tensor<64x32xf32>
    %cst_241 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %958 = stablehlo.broadcast_in_dim %cst_241, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %959 = stablehlo.multiply %958, %arg78 : tensor<64x32xf32>
    %960 = stablehlo.add %957, %959 : tensor<64x32xf32>
    %cst_242 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %961 = stablehlo.broadcast_in_dim %cst_242, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %962 = stablehlo.multiply %961, %438 : tensor<32xf32>
    %cst_243 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %963 = stablehlo.broadcast_in_dim %cst_243, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %964 = stablehlo.multiply %963, %arg79 : tensor<32xf32>
    %965 = stablehlo.add %962, %964 : tensor<32xf32>
    %cst_244 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %966 = stablehlo.broadcast_in_dim %cst_244, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %967 = stablehlo.multiply %966, %440 : tensor<32x32xf32>
    %cst_245 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %968 = stablehlo.broadcast_in_dim %cst_245, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %969 = stablehlo.multiply %968, %arg80 : tensor<32x32xf32>
    %970 = stablehlo.add %967, %969 : tensor<32x32xf32>
    %cst_246 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %971 = stablehlo.broadcast_in_dim %cst_246, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %972 = stablehlo.multiply %971, %429 : tensor<3xf32>
    %cst_247 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %973 = stablehlo.broadcast_in_dim %cst_247, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %974 = stablehlo.multiply %973, %arg81 : tensor<3xf32>
    %975 = stablehlo.add %972, %974 : tensor<3xf32>
    %cst_248 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %976 = stablehlo.broadcast_in_dim %cst_248, dims = [] : (tensor<f32>) -> tensor<32x3xf32>
    %977 = stablehlo.multiply %976, %431 : tensor<32x3xf32>
    %cst_249 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %978 = stablehlo.broadcast_in_dim %cst_249, dims = [] : (tensor<f32>) -> tensor<32x3xf32>
    %979 = stablehlo.multiply %978, %arg82 : tensor<32x3xf32>
    %980 = stablehlo.add %977, %979 : tensor<32x3xf32>
    %981 = stablehlo.multiply %742, %742 : tensor<32xf32>
    %cst_250 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %982 = stablehlo.broadcast_in_dim %cst_250, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %983 = stablehlo.multiply %982, %981 : tensor<32xf32>
    %cst_251 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %984 = stablehlo.broadcast_in_dim %cst_251, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %985 = stablehlo.multiply %984, %arg83 : tensor<32xf32>
    %986 = stablehlo.add %983, %985 : tensor<32xf32>
    %987 = stablehlo.multiply %753, %753 : tensor<32xf32>
    %cst_252 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %988 = stablehlo.broadcast_in_dim %cst_252, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %989 = stablehlo.multiply %988, %987 : tensor<32xf32>
    %cst_253 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %990 = stablehlo.broadcast_in_dim %cst_253, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %991 = stablehlo.multiply %990, %arg84 : tensor<32xf32>
    %992 = stablehlo.add %989, %991 : tensor<32xf32>
    %993 = stablehlo.multiply %774, %774 : tensor<16x32xf32>
    %cst_254 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %994 = stablehlo.broadcast_in_dim %cst_254, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %995 = stablehlo.multiply %994, %993 : tensor<16x32xf32>
    %cst_255 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %996 = stablehlo.broadcast_in_dim %cst_255, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %997 = stablehlo.multiply %996, %arg85 : tensor<16x32xf32>
    %998 = stablehlo.add %995, %997 : tensor<16x32xf32>
    %999 = stablehlo.multiply %773, %773 : tensor<2x32xf32>
    %cst_256 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1000 = stablehlo.broadcast_in_dim %cst_256, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %1001 = stablehlo.multiply %1000, %999 : tensor<2x32xf32>
    %cst_257 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1002 = stablehlo.broadcast_in_dim %cst_257, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %1003 = stablehlo.multiply %1002, %arg86 : tensor<2x32xf32>
    %1004 = stablehlo.add %1001, %1003 : tensor<2x32xf32>
    %1005 = stablehlo.multiply %775, %775 : tensor<64x32xf32>
    %cst_258 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1006 = stablehlo.broadcast_in_dim %cst_258, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1007 = stablehlo.multiply %1006, %1005 : tensor<64x32xf32>
    %cst_259 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1008 = stablehlo.broadcast_in_dim %cst_259, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1009 = stablehlo.multiply %1008, %arg87 : tensor<64x32xf32>
    %1010 = stablehlo.add %1007, %1009 : tensor<64x32xf32>
    %1011 = stablehlo.multiply %651, %651 : tensor<32xf32>
    %cst_260 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1012 = stablehlo.broadcast_in_dim %cst_260, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1013 = stablehlo.multiply %1012, %1011 : tensor<32xf32>
    %cst_261 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1014 = stablehlo.broadcast_in_dim %cst_261, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1015 = stablehlo.multiply %1014, %arg88 : tensor<32xf32>
    %1016 = stablehlo.add %1013, %1015 : tensor<32xf32>
    %1017 = stablehlo.multiply %662, %662 : tensor<32xf32>
    %cst_262 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1018 = stablehlo.broadcast_in_dim %cst_262, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1019 = stablehlo.multiply %1018, %1017 : tensor<32xf32>
    %cst_263 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1020 = stablehlo.broadcast_in_dim %cst_263, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1021 = stablehlo.multiply %1020, %arg89 : tensor<32xf32>
    %1022 = stablehlo.add %1019, %1021 : tensor<32xf32>
    %1023 = stablehlo.multiply %684, %684 : tensor<32xf32>
    %cst_264 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1024 = stablehlo.broadcast_in_dim %cst_264, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1025 = stablehlo.multiply %1024, %1023 : tensor<32xf32>
    %cst_265 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1026 = stablehlo.broadcast_in_dim %cst_265, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1027 = stablehlo.multiply %1026, %arg90 : tensor<32xf32>
    %1028 = stablehlo.add %1025, %1027 : tensor<32xf32>
    %1029 = stablehlo.multiply %686, %686 : tensor<32x32xf32>
    %cst_266 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1030 = stablehlo.broadcast_in_dim %cst_266, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1031 = stablehlo.multiply %1030, %1029 : tensor<32x32xf32>
    %cst_267 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1032 = stablehlo.broadcast_in_dim %cst_267, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1033 = stablehlo.multiply %1032, %arg91 : tensor<32x32xf32>
    %1034 = stablehlo.add %1031, %1033 : tensor<32x32xf32>
    %1035 = stablehlo.multiply %728, %728 : tensor<32xf32>
    %cst_268 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1036 = stablehlo.broadcast_in_dim %cst_268, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1037 = stablehlo.multiply %1036, %1035 : tensor<32xf32>
    %cst_269 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1038 = stablehlo.broadcast_in_dim %cst_269, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1039 = stablehlo.multiply %1038, %arg92 : tensor<32xf32>
    %1040 = stablehlo.add %1037, %1039 : tensor<32xf32>
    %1041 = stablehlo.multiply %730, %730 : tensor<32x32xf32>
    %cst_270 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1042 = stablehlo.broadcast_in_dim %cst_270, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1043 = stablehlo.multiply %1042, %1041 : tensor<32x32xf32>
    %cst_271 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1044 = stablehlo.broadcast_in_dim %cst_271, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1045 = stablehlo.multiply %1044, %arg93 : tensor<32x32xf32>
    %1046 = stablehlo.add %1043, %1045 : tensor<32x32xf32>
    %1047 = stablehlo.multiply %735, %735 : tensor<32xf32>
    %cst_272 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1048 = stablehlo.broadcast_in_dim %cst_272, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1049 = stablehlo.multiply %1048, %1047 : tensor<32xf32>
    %cst_273 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1050 = stablehlo.broadcast_in_dim %cst_273, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1051 = stablehlo.multiply %1050, %arg94 : tensor<32xf32>
    %1052 = stablehlo.add %1049, %1051 : tensor<32xf32>
    %1053 = stablehlo.multiply %737, %737 : tensor<32x32xf32>
    %cst_274 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1054 = stablehlo.broadcast_in_dim %cst_274, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1055 = stablehlo.multiply %1054, %1053 : tensor<32x32xf32>
    %cst_275 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1056 = stablehlo.broadcast_in_dim %cst_275, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1057 = stablehlo.multiply %1056, %arg95 : tensor<32x32xf32>
    %1058 = stablehlo.add %1055, %1057 : tensor<32x32xf32>
    %1059 = stablehlo.multiply %721, %721 : tensor<32xf32>
    %cst_276 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1060 = stablehlo.broadcast_in_dim %cst_276, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1061 = stablehlo.multiply %1060, %1059 : tensor<32xf32>
    %cst_277 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1062 = stablehlo.broadcast_in_dim %cst_277, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1063 = stablehlo.multiply %1062, %arg96 : tensor<32xf32>
    %1064 = stablehlo.add %1061, %1063 : tensor<32xf32>
    %1065 = stablehlo.multiply %723, %723 : tensor<32x32xf32>
    %cst_278 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1066 = stablehlo.broadcast_in_dim %cst_278, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1067 = stablehlo.multiply %1066, %1065 : tensor<32x32xf32>
    %cst_279 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1068 = stablehlo.broadcast_in_dim %cst_279, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1069 = stablehlo.multiply %1068, %arg97 : tensor<32x32xf32>
    %1070 = stablehlo.add %1067, %1069 : tensor<32x32xf32>
    %1071 = stablehlo.multiply %644, %644 : tensor<64xf32>
    %cst_280 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1072 = stablehlo.broadcast_in_dim %cst_280, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1073 = stablehlo.multiply %1072, %1071 : tensor<64xf32>
    %cst_281 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1074 = stablehlo.broadcast_in_dim %cst_281, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1075 = stablehlo.multiply %1074, %arg98 : tensor<64xf32>
    %1076 = stablehlo.add %1073, %1075 : tensor<64xf32>
    %1077 = stablehlo.multiply %646, %646 : tensor<32x64xf32>
    %cst_282 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1078 = stablehlo.broadcast_in_dim %cst_282, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %1079 = stablehlo.multiply %1078, %1077 : tensor<32x64xf32>
    %cst_283 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1080 = stablehlo.broadcast_in_dim %cst_283, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %1081 = stablehlo.multiply %1080, %arg99 : tensor<32x64xf32>
    %1082 = stablehlo.add %1079, %1081 : tensor<32x64xf32>
    %1083 = stablehlo.multiply %594, %594 : tensor<32xf32>
    %cst_284 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1084 = stablehlo.broadcast_in_dim %cst_284, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1085 = stablehlo.multiply %1084, %1083 : tensor<32xf32>
    %cst_285 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1086 = stablehlo.broadcast_in_dim %cst_285, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1087 = stablehlo.multiply %1086, %arg100 : tensor<32xf32>
    %1088 = stablehlo.add %1085, %1087 : tensor<32xf32>
    %1089 = stablehlo.multiply %605, %605 : tensor<32xf32>
    %cst_286 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1090 = stablehlo.broadcast_in_dim %cst_286, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1091 = stablehlo.multiply %1090, %1089 : tensor<32xf32>
    %cst_287 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1092 = stablehlo.broadcast_in_dim %cst_287, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1093 = stablehlo.multiply %1092, %arg101 : tensor<32xf32>
    %1094 = stablehlo.add %1091, %1093 : tensor<32xf32>
    %1095 = stablehlo.multiply %627, %627 : tensor<32xf32>
    %cst_288 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1096 = stablehlo.broadcast_in_dim %cst_288, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1097 = stablehlo.multiply %1096, %1095 : tensor<32xf32>
    %cst_289 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1098 = stablehlo.broadcast_in_dim %cst_289, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1099 = stablehlo.multiply %1098, %arg102 : tensor<32xf32>
    %1100 = stablehlo.add %1097, %1099 : tensor<32xf32>
    %1101 = stablehlo.multiply %629, %629 : tensor<64x32xf32>
    %cst_290 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1102 = stablehlo.broadcast_in_dim %cst_290, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1103 = stablehlo.multiply %1102, %1101 : tensor<64x32xf32>
    %cst_291 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1104 = stablehlo.broadcast_in_dim %cst_291, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1105 = stablehlo.multiply %1104, %arg103 : tensor<64x32xf32>
    %1106 = stablehlo.add %1103, %1105 : tensor<64x32xf32>
    %1107 = stablehlo.multiply %503, %503 : tensor<32xf32>
    %cst_292 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1108 = stablehlo.broadcast_in_dim %cst_292, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1109 = stablehlo.multiply %1108, %1107 : tensor<32xf32>
    %cst_293 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1110 = stablehlo.broadcast_in_dim %cst_293, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1111 = stablehlo.multiply %1110, %arg104 : tensor<32xf32>
    %1112 = stablehlo.add %1109, %1111 : tensor<32xf32>
    %1113 = stablehlo.multiply %514, %514 : tensor<32xf32>
    %cst_294 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1114 = stablehlo.broadcast_in_dim %cst_294, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1115 = stablehlo.multiply %1114, %1113 : tensor<32xf32>
    %cst_295 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1116 = stablehlo.broadcast_in_dim %cst_295, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1117 = stablehlo.multiply %1116, %arg105 : tensor<32xf32>
    %1118 = stablehlo.add %1115, %1117 : tensor<32xf32>
    %1119 = stablehlo.multiply %536, %536 : tensor<32xf32>
    %cst_296 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1120 = stablehlo.broadcast_in_dim %cst_296, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1121 = stablehlo.multiply %1120, %1119 : tensor<32xf32>
    %cst_297 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1122 = stablehlo.broadcast_in_dim %cst_297, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1123 = stablehlo.multiply %1122, %arg106 : tensor<32xf32>
    %1124 = stablehlo.add %1121, %1123 : tensor<32xf32>
    %1125 = stablehlo.multiply %538, %538 : tensor<32x32xf32>
    %cst_298 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1126 = stablehlo.broadcast_in_dim %cst_298, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1127 = stablehlo.multiply %1126, %1125 : tensor<32x32xf32>
    %cst_299 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1128 = stablehlo.broadcast_in_dim %cst_299, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1129 = stablehlo.multiply %1128, %arg107 : tensor<32x32xf32>
    %1130 = stablehlo.add %1127, %1129 : tensor<32x32xf32>
    %1131 = stablehlo.multiply %580, %580 : tensor<32xf32>
    %cst_300 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1132 = stablehlo.broadcast_in_dim %cst_300, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1133 = stablehlo.multiply %1132, %1131 : tensor<32xf32>
    %cst_301 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1134 = stablehlo.broadcast_in_dim %cst_301, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1135 = stablehlo.multiply %1134, %arg108 : tensor<32xf32>
    %1136 = stablehlo.add %1133, %1135 : tensor<32xf32>
    %1137 = stablehlo.multiply %582, %582 : tensor<32x32xf32>
    %cst_302 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1138 = stablehlo.broadcast_in_dim %cst_302, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1139 = stablehlo.multiply %1138, %1137 : tensor<32x32xf32>
    %cst_303 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1140 = stablehlo.broadcast_in_dim %cst_303, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1141 = stablehlo.multiply %1140, %arg109 : tensor<32x32xf32>
    %1142 = stablehlo.add %1139, %1141 : tensor<32x32xf32>
    %1143 = stablehlo.multiply %587, %587 : tensor<32xf32>
    %cst_304 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1144 = stablehlo.broadcast_in_dim %cst_304, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1145 = stablehlo.multiply %1144, %1143 : tensor<32xf32>
    %cst_305 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1146 = stablehlo.broadcast_in_dim %cst_305, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1147 = stablehlo.multiply %1146, %arg110 : tensor<32xf32>
    %1148 = stablehlo.add %1145, %1147 : tensor<32xf32>
    %1149 = stablehlo.multiply %589, %589 : tensor<32x32xf32>
    %cst_306 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1150 = stablehlo.broadcast_in_dim %cst_306, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1151 = stablehlo.multiply %1150, %1149 : tensor<32x32xf32>
    %cst_307 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1152 = stablehlo.broadcast_in_dim %cst_307, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1153 = stablehlo.multiply %1152, %arg111 : tensor<32x32xf32>
    %1154 = stablehlo.add %1151, %1153 : tensor<32x32xf32>
    %1155 = stablehlo.multiply %573, %573 : tensor<32xf32>
    %cst_308 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1156 = stablehlo.broadcast_in_dim %cst_308, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1157 = stablehlo.multiply %1156, %1155 : tensor<32xf32>
    %cst_309 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1158 = stablehlo.broadcast_in_dim %cst_309, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1159 = stablehlo.multiply %1158, %arg112 : tensor<32xf32>
    %1160 = stablehlo.add %1157, %1159 : tensor<32xf32>
    %1161 = stablehlo.multiply %575, %575 : tensor<32x32xf32>
    %cst_310 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1162 = stablehlo.broadcast_in_dim %cst_310, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1163 = stablehlo.multiply %1162, %1161 : tensor<32x32xf32>
    %cst_311 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1164 = stablehlo.broadcast_in_dim %cst_311, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1165 = stablehlo.multiply %1164, %arg113 : tensor<32x32xf32>
    %1166 = stablehlo.add %1163, %1165 : tensor<32x32xf32>
    %1167 = stablehlo.multiply %496, %496 : tensor<64xf32>
    %cst_312 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1168 = stablehlo.broadcast_in_dim %cst_312, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1169 = stablehlo.multiply %1168, %1167 : tensor<64xf32>
    %cst_313 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1170 = stablehlo.broadcast_in_dim %cst_313, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1171 = stablehlo.multiply %1170, %arg114 : tensor<64xf32>
    %1172 = stablehlo.add %1169, %1171 : tensor<64xf32>
    %1173 = stablehlo.multiply %498, %498 : tensor<32x64xf32>
    %cst_314 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1174 = stablehlo.broadcast_in_dim %cst_314, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %1175 = stablehlo.multiply %1174, %1173 : tensor<32x64xf32>
    %cst_315 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1176 = stablehlo.broadcast_in_dim %cst_315, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %1177 = stablehlo.multiply %1176, %arg115 : tensor<32x64xf32>
    %1178 = stablehlo.add %1175, %1177 : tensor<32x64xf32>
    %1179 = stablehlo.multiply %446, %446 : tensor<32xf32>
    %cst_316 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1180 = stablehlo.broadcast_in_dim %cst_316, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1181 = stablehlo.multiply %1180, %1179 : tensor<32xf32>
    %cst_317 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1182 = stablehlo.broadcast_in_dim %cst_317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1183 = stablehlo.multiply %1182, %arg116 : tensor<32xf32>
    %1184 = stablehlo.add %1181, %1183 : tensor<32xf32>
    %1185 = stablehlo.multiply %457, %457 : tensor<32xf32>
    %cst_318 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1186 = stablehlo.broadcast_in_dim %cst_318, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1187 = stablehlo.multiply %1186, %1185 : tensor<32xf32>
    %cst_319 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1188 = stablehlo.broadcast_in_dim %cst_319, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1189 = stablehlo.multiply %1188, %arg117 : tensor<32xf32>
    %1190 = stablehlo.add %1187, %1189 : tensor<32xf32>
    %1191 = stablehlo.multiply %479, %479 : tensor<32xf32>
    %cst_320 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1192 = stablehlo.broadcast_in_dim %cst_320, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1193 = stablehlo.multiply %1192, %1191 : tensor<32xf32>
    %cst_321 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1194 = stablehlo.broadcast_in_dim %cst_321, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1195 = stablehlo.multiply %1194, %arg118 : tensor<32xf32>
    %1196 = stablehlo.add %1193, %1195 : tensor<32xf32>
    %1197 = stablehlo.multiply %481, %481 : tensor<64x32xf32>
    %cst_322 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1198 = stablehlo.broadcast_in_dim %cst_322, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1199 = stablehlo.multiply %1198, %1197 : tensor<64x32xf32>
    %cst_323 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1200 = stablehlo.broadcast_in_dim %cst_323, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1201 = stablehlo.multiply %1200, %arg119 : tensor<64x32xf32>
    %1202 = stablehlo.add %1199, %1201 : tensor<64x32xf32>
    %1203 = stablehlo.multiply %438, %438 : tensor<32xf32>
    %cst_324 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1204 = stablehlo.broadcast_in_dim %cst_324, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1205 = stablehlo.multiply %1204, %1203 : tensor<32xf32>
    %cst_325 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1206 = stablehlo.broadcast_in_dim %cst_325, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1207 = stablehlo.multiply %1206, %arg120 : tensor<32xf32>
    %1208 = stablehlo.add %1205, %1207 : tensor<32xf32>
    %1209 = stablehlo.multiply %440, %440 : tensor<32x32xf32>
    %cst_326 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1210 = stablehlo.broadcast_in_dim %cst_326, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1211 = stablehlo.multiply %1210, %1209 : tensor<32x32xf32>
    %cst_327 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1212 = stablehlo.broadcast_in_dim %cst_327, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1213 = stablehlo.multiply %1212, %arg121 : tensor<32x32xf32>
    %1214 = stablehlo.add %1211, %1213 : tensor<32x32xf32>
    %1215 = stablehlo.multiply %429, %429 : tensor<3xf32>
    %cst_328 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1216 = stablehlo.broadcast_in_dim %cst_328, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %1217 = stablehlo.multiply %1216, %1215 : tensor<3xf32>
    %cst_329 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1218 = stablehlo.broadcast_in_dim %cst_329, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %1219 = stablehlo.multiply %1218, %arg122 : tensor<3xf32>
    %1220 = stablehlo.add %1217, %1219 : tensor<3xf32>
    %1221 = stablehlo.multiply %431, %431 : tensor<32x3xf32>
    %cst_330 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1222 = stablehlo.broadcast_in_dim %cst_330, dims = [] : (tensor<f32>) -> tensor<32x3xf32>
    %1223 = stablehlo.multiply %1222, %1221 : tensor<32x3xf32>
    %cst_331 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1224 = stablehlo.broadcast_in_dim %cst_331, dims = [] : (tensor<f32>) -> tensor<32x3xf32>
    %1225 = stablehlo.multiply %1224, %arg123 : tensor<32x3xf32>
    %1226 = stablehlo.add %1223, %1225 : tensor<32x3xf32>
    %c_332 = stablehlo.constant dense<2147483647> : tensor<i32>
    %1227 = stablehlo.compare LT, %arg41, %c_332, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_333 = stablehlo.constant dense<1> : tensor<i32>
    %1228 = stablehlo.add %arg41, %c_333 : tensor<i32>
    %c_334 = stablehlo.constant dense<2147483647> : tensor<i32>
    %1229 = call @_where_9(%1227, %1228, %c_334) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %cst_335 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %1230 = stablehlo.convert %1229 : (tensor<i32>) -> tensor<f32>
    %1231 = stablehlo.power %cst_335, %1230 : tensor<f32>
    %cst_336 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1232 = stablehlo.subtract %cst_336, %1231 : tensor<f32>
    %1233 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1234 = stablehlo.divide %780, %1233 : tensor<32xf32>
    %1235 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1236 = stablehlo.divide %785, %1235 : tensor<32xf32>
    %1237 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %1238 = stablehlo.divide %790, %1237 : tensor<16x32xf32>
    %1239 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %1240 = stablehlo.divide %795, %1239 : tensor<2x32xf32>
    %1241 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1242 = stablehlo.divide %800, %1241 : tensor<64x32xf32>
    %1243 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1244 = stablehlo.divide %805, %1243 : tensor<32xf32>
    %1245 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1246 = stablehlo.divide %810, %1245 : tensor<32xf32>
    %1247 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1248 = stablehlo.divide %815, %1247 : tensor<32xf32>
    %1249 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1250 = stablehlo.divide %820, %1249 : tensor<32x32xf32>
    %1251 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1252 = stablehlo.divide %825, %1251 : tensor<32xf32>
    %1253 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1254 = stablehlo.divide %830, %1253 : tensor<32x32xf32>
    %1255 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1256 = stablehlo.divide %835, %1255 : tensor<32xf32>
    %1257 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1258 = stablehlo.divide %840, %1257 : tensor<32x32xf32>
    %1259 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1260 = stablehlo.divide %845, %1259 : tensor<32xf32>
    %1261 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1262 = stablehlo.divide %850, %1261 : tensor<32x32xf32>
    %1263 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1264 = stablehlo.divide %855, %1263 : tensor<64xf32>
    %1265 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %1266 = stablehlo.divide %860, %1265 : tensor<32x64xf32>
    %1267 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1268 = stablehlo.divide %865, %1267 : tensor<32xf32>
    %1269 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1270 = stablehlo.divide %870, %1269 : tensor<32xf32>
    %1271 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1272 = stablehlo.divide %875, %1271 : tensor<32xf32>
    %1273 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1274 = stablehlo.divide %880, %1273 : tensor<64x32xf32>
    %1275 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1276 = stablehlo.divide %885, %1275 : tensor<32xf32>
    %1277 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1278 = stablehlo.divide %890, %1277 : tensor<32xf32>
    %1279 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1280 = stablehlo.divide %895, %1279 : tensor<32xf32>
    %1281 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1282 = stablehlo.divide %900, %1281 : tensor<32x32xf32>
    %1283 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1284 = stablehlo.divide %905, %1283 : tensor<32xf32>
    %1285 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1286 = stablehlo.divide %910, %1285 : tensor<32x32xf32>
    %1287 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1288 = stablehlo.divide %915, %1287 : tensor<32xf32>
    %1289 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1290 = stablehlo.divide %920, %1289 : tensor<32x32xf32>
    %1291 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1292 = stablehlo.divide %925, %1291 : tensor<32xf32>
    %1293 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1294 = stablehlo.divide %930, %1293 : tensor<32x32xf32>
    %1295 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1296 = stablehlo.divide %935, %1295 : tensor<64xf32>
    %1297 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %1298 = stablehlo.divide %940, %1297 : tensor<32x64xf32>
    %1299 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1300 = stablehlo.divide %945, %1299 : tensor<32xf32>
    %1301 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1302 = stablehlo.divide %950, %1301 : tensor<32xf32>
    %1303 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1304 = stablehlo.divide %955, %1303 : tensor<32xf32>
    %1305 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1306 = stablehlo.divide %960, %1305 : tensor<64x32xf32>
    %1307 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1308 = stablehlo.divide %965, %1307 : tensor<32xf32>
    %1309 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1310 = stablehlo.divide %970, %1309 : tensor<32x32xf32>
    %1311 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %1312 = stablehlo.divide %975, %1311 : tensor<3xf32>
    %1313 = stablehlo.broadcast_in_dim %1232, dims = [] : (tensor<f32>) -> tensor<32x3xf32>
    %1314 = stablehlo.divide %980, %1313 : tensor<32x3xf32>
    %cst_337 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1315 = stablehlo.convert %1229 : (tensor<i32>) -> tensor<f32>
    %1316 = stablehlo.power %cst_337, %1315 : tensor<f32>
    %cst_338 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1317 = stablehlo.subtract %cst_338, %1316 : tensor<f32>
    %1318 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1319 = stablehlo.divide %986, %1318 : tensor<32xf32>
    %1320 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1321 = stablehlo.divide %992, %1320 : tensor<32xf32>
    %1322 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %1323 = stablehlo.divide %998, %1322 : tensor<16x32xf32>
    %1324 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %1325 = stablehlo.divide %1004, %1324 : tensor<2x32xf32>
    %1326 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1327 = stablehlo.divide %1010, %1326 : tensor<64x32xf32>
    %1328 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1329 = stablehlo.divide %1016, %1328 : tensor<32xf32>
    %1330 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1331 = stablehlo.divide %1022, %1330 : tensor<32xf32>
    %1332 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1333 = stablehlo.divide %1028, %1332 : tensor<32xf32>
    %1334 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1335 = stablehlo.divide %1034, %1334 : tensor<32x32xf32>
    %1336 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1337 = stablehlo.divide %1040, %1336 : tensor<32xf32>
    %1338 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1339 = stablehlo.divide %1046, %1338 : tensor<32x32xf32>
    %1340 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1341 = stablehlo.divide %1052, %1340 : tensor<32xf32>
    %1342 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1343 = stablehlo.divide %1058, %1342 : tensor<32x32xf32>
    %1344 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1345 = stablehlo.divide %1064, %1344 : tensor<32xf32>
    %1346 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1347 = stablehlo.divide %1070, %1346 : tensor<32x32xf32>
    %1348 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1349 = stablehlo.divide %1076, %1348 : tensor<64xf32>
    %1350 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %1351 = stablehlo.divide %1082, %1350 : tensor<32x64xf32>
    %1352 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1353 = stablehlo.divide %1088, %1352 : tensor<32xf32>
    %1354 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1355 = stablehlo.divide %1094, %1354 : tensor<32xf32>
    %1356 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1357 = stablehlo.divide %1100, %1356 : tensor<32xf32>
    %1358 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1359 = stablehlo.divide %1106, %1358 : tensor<64x32xf32>
    %1360 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1361 = stablehlo.divide %1112, %1360 : tensor<32xf32>
    %1362 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1363 = stablehlo.divide %1118, %1362 : tensor<32xf32>
    %1364 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1365 = stablehlo.divide %1124, %1364 : tensor<32xf32>
    %1366 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1367 = stablehlo.divide %1130, %1366 : tensor<32x32xf32>
    %1368 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1369 = stablehlo.divide %1136, %1368 : tensor<32xf32>
    %1370 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1371 = stablehlo.divide %1142, %1370 : tensor<32x32xf32>
    %1372 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1373 = stablehlo.divide %1148, %1372 : tensor<32xf32>
    %1374 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1375 = stablehlo.divide %1154, %1374 : tensor<32x32xf32>
    %1376 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1377 = stablehlo.divide %1160, %1376 : tensor<32xf32>
    %1378 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1379 = stablehlo.divide %1166, %1378 : tensor<32x32xf32>
    %1380 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1381 = stablehlo.divide %1172, %1380 : tensor<64xf32>
    %1382 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %1383 = stablehlo.divide %1178, %1382 : tensor<32x64xf32>
    %1384 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1385 = stablehlo.divide %1184, %1384 : tensor<32xf32>
    %1386 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1387 = stablehlo.divide %1190, %1386 : tensor<32xf32>
    %1388 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1389 = stablehlo.divide %1196, %1388 : tensor<32xf32>
    %1390 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1391 = stablehlo.divide %1202, %1390 : tensor<64x32xf32>
    %1392 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1393 = stablehlo.divide %1208, %1392 : tensor<32xf32>
    %1394 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1395 = stablehlo.divide %1214, %1394 : tensor<32x32xf32>
    %1396 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %1397 = stablehlo.divide %1220, %1396 : tensor<3xf32>
    %1398 = stablehlo.broadcast_in_dim %1317, dims = [] : (tensor<f32>) -> tensor<32x3xf32>
    %1399 = stablehlo.divide %1226, %1398 : tensor<32x3xf32>
    %cst_339 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1400 = stablehlo.broadcast_in_dim %cst_339, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1401 = stablehlo.add %1319, %1400 : tensor<32xf32>
    %1402 = stablehlo.sqrt %1401 : tensor<32xf32>
    %cst_340 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1403 = stablehlo.broadcast_in_dim %cst_340, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1404 = stablehlo.add %1402, %1403 : tensor<32xf32>
    %1405 = stablehlo.divide %1234, %1404 : tensor<32xf32>
    %cst_341 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1406 = stablehlo.broadcast_in_dim %cst_341, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1407 = stablehlo.add %1321, %1406 : tensor<32xf32>
    %1408 = stablehlo.sqrt %1407 : tensor<32xf32>
    %cst_342 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1409 = stablehlo.broadcast_in_dim %cst_342, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1410 = stablehlo.add %1408, %1409 : tensor<32xf32>
    %1411 = stablehlo.divide %1236, %1410 : tensor<32xf32>
    %cst_343 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1412 = stablehlo.broadcast_in_dim %cst_343, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %1413 = stablehlo.add %1323, %1412 : tensor<16x32xf32>
    %1414 = stablehlo.sqrt %1413 : tensor<16x32xf32>
    %cst_344 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1415 = stablehlo.broadcast_in_dim %cst_344, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %1416 = stablehlo.add %1414, %1415 : tensor<16x32xf32>
    %1417 = stablehlo.divide %1238, %1416 : tensor<16x32xf32>
    %cst_345 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1418 = stablehlo.broadcast_in_dim %cst_345, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %1419 = stablehlo.add %1325, %1418 : tensor<2x32xf32>
    %1420 = stablehlo.sqrt %1419 : tensor<2x32xf32>
    %cst_346 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1421 = stablehlo.broadcast_in_dim %cst_346, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %1422 = stablehlo.add %1420, %1421 : tensor<2x32xf32>
    %1423 = stablehlo.divide %1240, %1422 : tensor<2x32xf32>
    %cst_347 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1424 = stablehlo.broadcast_in_dim %cst_347, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1425 = stablehlo.add %1327, %1424 : tensor<64x32xf32>
    %1426 = stablehlo.sqrt %1425 : tensor<64x32xf32>
    %cst_348 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1427 = stablehlo.broadcast_in_dim %cst_348, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1428 = stablehlo.add %1426, %1427 : tensor<64x32xf32>
    %1429 = stablehlo.divide %1242, %1428 : tensor<64x32xf32>
    %cst_349 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1430 = stablehlo.broadcast_in_dim %cst_349, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1431 = stablehlo.add %1329, %1430 : tensor<32xf32>
    %1432 = stablehlo.sqrt %1431 : tensor<32xf32>
    %cst_350 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1433 = stablehlo.broadcast_in_dim %cst_350, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1434 = stablehlo.add %1432, %1433 : tensor<32xf32>
    %1435 = stablehlo.divide %1244, %1434 : tensor<32xf32>
    %cst_351 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1436 = stablehlo.broadcast_in_dim %cst_351, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1437 = stablehlo.add %1331, %1436 : tensor<32xf32>
    %1438 = stablehlo.sqrt %1437 : tensor<32xf32>
    %cst_352 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1439 = stablehlo.broadcast_in_dim %cst_352, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1440 = stablehlo.add %1438, %1439 : tensor<32xf32>
    %1441 = stablehlo.divide %1246, %1440 : tensor<32xf32>
    %cst_353 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1442 = stablehlo.broadcast_in_dim %cst_353, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1443 = stablehlo.add %1333, %1442 : tensor<32xf32>
    %1444 = stablehlo.sqrt %1443 : tensor<32xf32>
    %cst_354 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1445 = stablehlo.broadcast_in_dim %cst_354, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1446 = stablehlo.add %1444, %1445 : tensor<32xf32>
    %1447 = stablehlo.divide %1248, %1446 : tensor<32xf32>
    %cst_355 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1448 = stablehlo.broadcast_in_dim %cst_355, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1449 = stablehlo.add %1335, %1448 : tensor<32x32xf32>
    %1450 = stablehlo.sqrt %1449 : tensor<32x32xf32>
    %cst_356 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1451 = stablehlo.broadcast_in_dim %cst_356, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1452 = stablehlo.add %1450, %1451 : tensor<32x32xf32>
    %1453 = stablehlo.divide %1250, %1452 : tensor<32x32xf32>
    %cst_357 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1454 = stablehlo.broadcast_in_dim %cst_357, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1455 = stablehlo.add %1337, %1454 : tensor<32xf32>
    %1456 = stablehlo.sqrt %1455 : tensor<32xf32>
    %cst_358 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1457 = stablehlo.broadcast_in_dim %cst_358, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1458 = stablehlo.add %1456, %1457 : tensor<32xf32>
    %1459 = stablehlo.divide %1252, %1458 : tensor<32xf32>
    %cst_359 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1460 = stablehlo.broadcast_in_dim %cst_359, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1461 = stablehlo.add %1339, %1460 : tensor<32x32xf32>
    %1462 = stablehlo.sqrt %1461 : tensor<32x32xf32>
    %cst_360 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1463 = stablehlo.broadcast_in_dim %cst_360, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1464 = stablehlo.add %1462, %1463 : tensor<32x32xf32>
    %1465 = stablehlo.divide %1254, %1464 : tensor<32x32xf32>
    %cst_361 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1466 = stablehlo.broadcast_in_dim %cst_361, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1467 = stablehlo.add %1341, %1466 : tensor<32xf32>
    %1468 = stablehlo.sqrt %1467 : tensor<32xf32>
    %cst_362 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1469 = stablehlo.broadcast_in_dim %cst_362, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1470 = stablehlo.add %1468, %1469 : tensor<32xf32>
    %1471 = stablehlo.divide %1256, %1470 : tensor<32xf32>
    %cst_363 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1472 = stablehlo.broadcast_in_dim %cst_363, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1473 = stablehlo.add %1343, %1472 : tensor<32x32xf32>
    %1474 = stablehlo.sqrt %1473 : tensor<32x32xf32>
    %cst_364 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1475 = stablehlo.broadcast_in_dim %cst_364, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1476 = stablehlo.add %1474, %1475 : tensor<32x32xf32>
    %1477 = stablehlo.divide %1258, %1476 : tensor<32x32xf32>
    %cst_365 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1478 = stablehlo.broadcast_in_dim %cst_365, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1479 = stablehlo.add %1345, %1478 : tensor<32xf32>
    %1480 = stablehlo.sqrt %1479 : tensor<32xf32>
    %cst_366 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1481 = stablehlo.broadcast_in_dim %cst_366, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1482 = stablehlo.add %1480, %1481 : tensor<32xf32>
    %1483 = stablehlo.divide %1260, %1482 : tensor<32xf32>
    %cst_367 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1484 = stablehlo.broadcast_in_dim %cst_367, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1485 = stablehlo.add %1347, %1484 : tensor<32x32xf32>
    %1486 = stablehlo.sqrt %1485 : tensor<32x32xf32>
    %cst_368 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1487 = stablehlo.broadcast_in_dim %cst_368, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1488 = stablehlo.add %1486, %1487 : tensor<32x32xf32>
    %1489 = stablehlo.divide %1262, %1488 : tensor<32x32xf32>
    %cst_369 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1490 = stablehlo.broadcast_in_dim %cst_369, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1491 = stablehlo.add %1349, %1490 : tensor<64xf32>
    %1492 = stablehlo.sqrt %1491 : tensor<64xf32>
    %cst_370 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1493 = stablehlo.broadcast_in_dim %cst_370, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1494 = stablehlo.add %1492, %1493 : tensor<64xf32>
    %1495 = stablehlo.divide %1264, %1494 : tensor<64xf32>
    %cst_371 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1496 = stablehlo.broadcast_in_dim %cst_371, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %1497 = stablehlo.add %1351, %1496 : tensor<32x64xf32>
    %1498 = stablehlo.sqrt %1497 : tensor<32x64xf32>
    %cst_372 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1499 = stablehlo.broadcast_in_dim %cst_372, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %1500 = stablehlo.add %1498, %1499 : tensor<32x64xf32>
    %1501 = stablehlo.divide %1266, %1500 : tensor<32x64xf32>
    %cst_373 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1502 = stablehlo.broadcast_in_dim %cst_373, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1503 = stablehlo.add %1353, %1502 : tensor<32xf32>
    %1504 = stablehlo.sqrt %1503 : tensor<32xf32>
    %cst_374 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1505 = stablehlo.broadcast_in_dim %cst_374, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1506 = stablehlo.add %1504, %1505 : tensor<32xf32>
    %1507 = stablehlo.divide %1268, %1506 : tensor<32xf32>
    %cst_375 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1508 = stablehlo.broadcast_in_dim %cst_375, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1509 = stablehlo.add %1355, %1508 : tensor<32xf32>
    %1510 = stablehlo.sqrt %1509 : tensor<32xf32>
    %cst_376 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1511 = stablehlo.broadcast_in_dim %cst_376, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1512 = stablehlo.add %1510, %1511 : tensor<32xf32>
    %1513 = stablehlo.divide %1270, %1512 : tensor<32xf32>
    %cst_377 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1514 = stablehlo.broadcast_in_dim %cst_377, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1515 = stablehlo.add %1357, %1514 : tensor<32xf32>
    %1516 = stablehlo.sqrt %1515 : tensor<32xf32>
    %cst_378 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1517 = stablehlo.broadcast_in_dim %cst_378, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1518 = stablehlo.add %1516, %1517 : tensor<32xf32>
    %1519 = stablehlo.divide %1272, %1518 : tensor<32xf32>
    %cst_379 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1520 = stablehlo.broadcast_in_dim %cst_379, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1521 = stablehlo.add %1359, %1520 : tensor<64x32xf32>
    %1522 = stablehlo.sqrt %1521 : tensor<64x32xf32>
    %cst_380 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1523 = stablehlo.broadcast_in_dim %cst_380, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1524 = stablehlo.add %1522, %1523 : tensor<64x32xf32>
    %1525 = stablehlo.divide %1274, %1524 : tensor<64x32xf32>
    %cst_381 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1526 = stablehlo.broadcast_in_dim %cst_381, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1527 = stablehlo.add %1361, %1526 : tensor<32xf32>
    %1528 = stablehlo.sqrt %1527 : tensor<32xf32>
    %cst_382 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1529 = stablehlo.broadcast_in_dim %cst_382, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1530 = stablehlo.add %1528, %1529 : tensor<32xf32>
    %1531 = stablehlo.divide %1276, %1530 : tensor<32xf32>
    %cst_383 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1532 = stablehlo.broadcast_in_dim %cst_383, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1533 = stablehlo.add %1363, %1532 : tensor<32xf32>
    %1534 = stablehlo.sqrt %1533 : tensor<32xf32>
    %cst_384 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1535 = stablehlo.broadcast_in_dim %cst_384, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1536 = stablehlo.add %1534, %1535 : tensor<32xf32>
    %1537 = stablehlo.divide %1278, %1536 : tensor<32xf32>
    %cst_385 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1538 = stablehlo.broadcast_in_dim %cst_385, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1539 = stablehlo.add %1365, %1538 : tensor<32xf32>
    %1540 = stablehlo.sqrt %1539 : tensor<32xf32>
    %cst_386 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1541 = stablehlo.broadcast_in_dim %cst_386, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1542 = stablehlo.add %1540, %1541 : tensor<32xf32>
    %1543 = stablehlo.divide %1280, %1542 : tensor<32xf32>
    %cst_387 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1544 = stablehlo.broadcast_in_dim %cst_387, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1545 = stablehlo.add %1367, %1544 : tensor<32x32xf32>
    %1546 = stablehlo.sqrt %1545 : tensor<32x32xf32>
    %cst_388 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1547 = stablehlo.broadcast_in_dim %cst_388, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1548 = stablehlo.add %1546, %1547 : tensor<32x32xf32>
    %1549 = stablehlo.divide %1282, %1548 : tensor<32x32xf32>
    %cst_389 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1550 = stablehlo.broadcast_in_dim %cst_389, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1551 = stablehlo.add %1369, %1550 : tensor<32xf32>
    %1552 = stablehlo.sqrt %1551 : tensor<32xf32>
    %cst_390 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1553 = stablehlo.broadcast_in_dim %cst_390, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1554 = stablehlo.add %1552, %1553 : tensor<32xf32>
    %1555 = stablehlo.divide %1284, %1554 : tensor<32xf32>
    %cst_391 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1556 = stablehlo.broadcast_in_dim %cst_391, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1557 = stablehlo.add %1371, %1556 : tensor<32x32xf32>
    %1558 = stablehlo.sqrt %1557 : tensor<32x32xf32>
    %cst_392 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1559 = stablehlo.broadcast_in_dim %cst_392, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1560 = stablehlo.add %1558, %1559 : tensor<32x32xf32>
    %1561 = stablehlo.divide %1286, %1560 : tensor<32x32xf32>
    %cst_393 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1562 = stablehlo.broadcast_in_dim %cst_393, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1563 = stablehlo.add %1373, %1562 : tensor<32xf32>
    %1564 = stablehlo.sqrt %1563 : tensor<32xf32>
    %cst_394 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1565 = stablehlo.broadcast_in_dim %cst_394, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1566 = stablehlo.add %1564, %1565 : tensor<32xf32>
    %1567 = stablehlo.divide %1288, %1566 : tensor<32xf32>
    %cst_395 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1568 = stablehlo.broadcast_in_dim %cst_395, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1569 = stablehlo.add %1375, %1568 : tensor<32x32xf32>
    %1570 = stablehlo.sqrt %1569 : tensor<32x32xf32>
    %cst_396 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1571 = stablehlo.broadcast_in_dim %cst_396, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1572 = stablehlo.add %1570, %1571 : tensor<32x32xf32>
    %1573 = stablehlo.divide %1290, %1572 : tensor<32x32xf32>
    %cst_397 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1574 = stablehlo.broadcast_in_dim %cst_397, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1575 = stablehlo.add %1377, %1574 : tensor<32xf32>
    %1576 = stablehlo.sqrt %1575 : tensor<32xf32>
    %cst_398 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1577 = stablehlo.broadcast_in_dim %cst_398, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1578 = stablehlo.add %1576, %1577 : tensor<32xf32>
    %1579 = stablehlo.divide %1292, %1578 : tensor<32xf32>
    %cst_399 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1580 = stablehlo.broadcast_in_dim %cst_399, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1581 = stablehlo.add %1379, %1580 : tensor<32x32xf32>
    %1582 = stablehlo.sqrt %1581 : tensor<32x32xf32>
    %cst_400 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1583 = stablehlo.broadcast_in_dim %cst_400, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1584 = stablehlo.add %1582, %1583 : tensor<32x32xf32>
    %1585 = stablehlo.divide %1294, %1584 : tensor<32x32xf32>
    %cst_401 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1586 = stablehlo.broadcast_in_dim %cst_401, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1587 = stablehlo.add %1381, %1586 : tensor<64xf32>
    %1588 = stablehlo.sqrt %1587 : tensor<64xf32>
    %cst_402 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1589 = stablehlo.broadcast_in_dim %cst_402, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1590 = stablehlo.add %1588, %1589 : tensor<64xf32>
    %1591 = stablehlo.divide %1296, %1590 : tensor<64xf32>
    %cst_403 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1592 = stablehlo.broadcast_in_dim %cst_403, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %1593 = stablehlo.add %1383, %1592 : tensor<32x64xf32>
    %1594 = stablehlo.sqrt %1593 : tensor<32x64xf32>
    %cst_404 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1595 = stablehlo.broadcast_in_dim %cst_404, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %1596 = stablehlo.add %1594, %1595 : tensor<32x64xf32>
    %1597 = stablehlo.divide %1298, %1596 : tensor<32x64xf32>
    %cst_405 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1598 = stablehlo.broadcast_in_dim %cst_405, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1599 = stablehlo.add %1385, %1598 : tensor<32xf32>
    %1600 = stablehlo.sqrt %1599 : tensor<32xf32>
    %cst_406 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1601 = stablehlo.broadcast_in_dim %cst_406, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1602 = stablehlo.add %1600, %1601 : tensor<32xf32>
    %1603 = stablehlo.divide %1300, %1602 : tensor<32xf32>
    %cst_407 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1604 = stablehlo.broadcast_in_dim %cst_407, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1605 = stablehlo.add %1387, %1604 : tensor<32xf32>
    %1606 = stablehlo.sqrt %1605 : tensor<32xf32>
    %cst_408 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1607 = stablehlo.broadcast_in_dim %cst_408, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1608 = stablehlo.add %1606, %1607 : tensor<32xf32>
    %1609 = stablehlo.divide %1302, %1608 : tensor<32xf32>
    %cst_409 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1610 = stablehlo.broadcast_in_dim %cst_409, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1611 = stablehlo.add %1389, %1610 : tensor<32xf32>
    %1612 = stablehlo.sqrt %1611 : tensor<32xf32>
    %cst_410 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1613 = stablehlo.broadcast_in_dim %cst_410, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1614 = stablehlo.add %1612, %1613 : tensor<32xf32>
    %1615 = stablehlo.divide %1304, %1614 : tensor<32xf32>
    %cst_411 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1616 = stablehlo.broadcast_in_dim %cst_411, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1617 = stablehlo.add %1391, %1616 : tensor<64x32xf32>
    %1618 = stablehlo.sqrt %1617 : tensor<64x32xf32>
    %cst_412 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1619 = stablehlo.broadcast_in_dim %cst_412, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1620 = stablehlo.add %1618, %1619 : tensor<64x32xf32>
    %1621 = stablehlo.divide %1306, %1620 : tensor<64x32xf32>
    %cst_413 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1622 = stablehlo.broadcast_in_dim %cst_413, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1623 = stablehlo.add %1393, %1622 : tensor<32xf32>
    %1624 = stablehlo.sqrt %1623 : tensor<32xf32>
    %cst_414 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1625 = stablehlo.broadcast_in_dim %cst_414, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1626 = stablehlo.add %1624, %1625 : tensor<32xf32>
    %1627 = stablehlo.divide %1308, %1626 : tensor<32xf32>
    %cst_415 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1628 = stablehlo.broadcast_in_dim %cst_415, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1629 = stablehlo.add %1395, %1628 : tensor<32x32xf32>
    %1630 = stablehlo.sqrt %1629 : tensor<32x32xf32>
    %cst_416 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1631 = stablehlo.broadcast_in_dim %cst_416, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1632 = stablehlo.add %1630, %1631 : tensor<32x32xf32>
    %1633 = stablehlo.divide %1310, %1632 : tensor<32x32xf32>
    %cst_417 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1634 = stablehlo.broadcast_in_dim %cst_417, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %1635 = stablehlo.add %1397, %1634 : tensor<3xf32>
    %1636 = stablehlo.sqrt %1635 : tensor<3xf32>
    %cst_418 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1637 = stablehlo.broadcast_in_dim %cst_418, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %1638 = stablehlo.add %1636, %1637 : tensor<3xf32>
    %1639 = stablehlo.divide %1312, %1638 : tensor<3xf32>
    %cst_419 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1640 = stablehlo.broadcast_in_dim %cst_419, dims = [] : (tensor<f32>) -> tensor<32x3xf32>
    %1641 = stablehlo.add %1399, %1640 : tensor<32x3xf32>
    %1642 = stablehlo.sqrt %1641 : tensor<32x3xf32>
    %cst_420 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1643 = stablehlo.broadcast_in_dim %cst_420, dims = [] : (tensor<f32>) -> tensor<32x3xf32>
    %1644 = stablehlo.add %1642, %1643 : tensor<32x3xf32>
    %1645 = stablehlo.divide %1314, %1644 : tensor<32x3xf32>
    %cst_421 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1646 = stablehlo.broadcast_in_dim %cst_421, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1647 = stablehlo.multiply %1646, %1405 : tensor<32xf32>
    %cst_422 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1648 = stablehlo.broadcast_in_dim %cst_422, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1649 = stablehlo.multiply %1648, %1411 : tensor<32xf32>
    %cst_423 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1650 = stablehlo.broadcast_in_dim %cst_423, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %1651 = stablehlo.multiply %1650, %1417 : tensor<16x32xf32>
    %cst_424 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1652 = stablehlo.broadcast_in_dim %cst_424, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %1653 = stablehlo.multiply %1652, %1423 : tensor<2x32xf32>
    %cst_425 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1654 = stablehlo.broadcast_in_dim %cst_425, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1655 = stablehlo.multiply %1654, %1429 : tensor<64x32xf32>
    %cst_426 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1656 = stablehlo.broadcast_in_dim %cst_426, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1657 = stablehlo.multiply %1656, %1435 : tensor<32xf32>
    %cst_427 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1658 = stablehlo.broadcast_in_dim %cst_427, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1659 = stablehlo.multiply %1658, %1441 : tensor<32xf32>
    %cst_428 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1660 = stablehlo.broadcast_in_dim %cst_428, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1661 = stablehlo.multiply %1660, %1447 : tensor<32xf32>
    %cst_429 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1662 = stablehlo.broadcast_in_dim %cst_429, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1663 = stablehlo.multiply %1662, %1453 : tensor<32x32xf32>
    %cst_430 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1664 = stablehlo.broadcast_in_dim %cst_430, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1665 = stablehlo.multiply %1664, %1459 : tensor<32xf32>
    %cst_431 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1666 = stablehlo.broadcast_in_dim %cst_431, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1667 = stablehlo.multiply %1666, %1465 : tensor<32x32xf32>
    %cst_432 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1668 = stablehlo.broadcast_in_dim %cst_432, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1669 = stablehlo.multiply %1668, %1471 : tensor<32xf32>
    %cst_433 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1670 = stablehlo.broadcast_in_dim %cst_433, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1671 = stablehlo.multiply %1670, %1477 : tensor<32x32xf32>
    %cst_434 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1672 = stablehlo.broadcast_in_dim %cst_434, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1673 = stablehlo.multiply %1672, %1483 : tensor<32xf32>
    %cst_435 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1674 = stablehlo.broadcast_in_dim %cst_435, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1675 = stablehlo.multiply %1674, %1489 : tensor<32x32xf32>
    %cst_436 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1676 = stablehlo.broadcast_in_dim %cst_436, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1677 = stablehlo.multiply %1676, %1495 : tensor<64xf32>
    %cst_437 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1678 = stablehlo.broadcast_in_dim %cst_437, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %1679 = stablehlo.multiply %1678, %1501 : tensor<32x64xf32>
    %cst_438 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1680 = stablehlo.broadcast_in_dim %cst_438, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1681 = stablehlo.multiply %1680, %1507 : tensor<32xf32>
    %cst_439 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1682 = stablehlo.broadcast_in_dim %cst_439, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1683 = stablehlo.multiply %1682, %1513 : tensor<32xf32>
    %cst_440 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1684 = stablehlo.broadcast_in_dim %cst_440, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1685 = stablehlo.multiply %1684, %1519 : tensor<32xf32>
    %cst_441 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1686 = stablehlo.broadcast_in_dim %cst_441, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1687 = stablehlo.multiply %1686, %1525 : tensor<64x32xf32>
    %cst_442 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1688 = stablehlo.broadcast_in_dim %cst_442, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1689 = stablehlo.multiply %1688, %1531 : tensor<32xf32>
    %cst_443 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1690 = stablehlo.broadcast_in_dim %cst_443, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1691 = stablehlo.multiply %1690, %1537 : tensor<32xf32>
    %cst_444 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1692 = stablehlo.broadcast_in_dim %cst_444, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1693 = stablehlo.multiply %1692, %1543 : tensor<32xf32>
    %cst_445 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1694 = stablehlo.broadcast_in_dim %cst_445, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1695 = stablehlo.multiply %1694, %1549 : tensor<32x32xf32>
    %cst_446 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1696 = stablehlo.broadcast_in_dim %cst_446, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1697 = stablehlo.multiply %1696, %1555 : tensor<32xf32>
    %cst_447 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1698 = stablehlo.broadcast_in_dim %cst_447, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1699 = stablehlo.multiply %1698, %1561 : tensor<32x32xf32>
    %cst_448 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1700 = stablehlo.broadcast_in_dim %cst_448, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1701 = stablehlo.multiply %1700, %1567 : tensor<32xf32>
    %cst_449 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1702 = stablehlo.broadcast_in_dim %cst_449, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1703 = stablehlo.multiply %1702, %1573 : tensor<32x32xf32>
    %cst_450 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1704 = stablehlo.broadcast_in_dim %cst_450, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1705 = stablehlo.multiply %1704, %1579 : tensor<32xf32>
    %cst_451 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1706 = stablehlo.broadcast_in_dim %cst_451, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1707 = stablehlo.multiply %1706, %1585 : tensor<32x32xf32>
    %cst_452 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1708 = stablehlo.broadcast_in_dim %cst_452, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1709 = stablehlo.multiply %1708, %1591 : tensor<64xf32>
    %cst_453 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1710 = stablehlo.broadcast_in_dim %cst_453, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %1711 = stablehlo.multiply %1710, %1597 : tensor<32x64xf32>
    %cst_454 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1712 = stablehlo.broadcast_in_dim %cst_454, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1713 = stablehlo.multiply %1712, %1603 : tensor<32xf32>
    %cst_455 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1714 = stablehlo.broadcast_in_dim %cst_455, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1715 = stablehlo.multiply %1714, %1609 : tensor<32xf32>
    %cst_456 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1716 = stablehlo.broadcast_in_dim %cst_456, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1717 = stablehlo.multiply %1716, %1615 : tensor<32xf32>
    %cst_457 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1718 = stablehlo.broadcast_in_dim %cst_457, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1719 = stablehlo.multiply %1718, %1621 : tensor<64x32xf32>
    %cst_458 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1720 = stablehlo.broadcast_in_dim %cst_458, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1721 = stablehlo.multiply %1720, %1627 : tensor<32xf32>
    %cst_459 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1722 = stablehlo.broadcast_in_dim %cst_459, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1723 = stablehlo.multiply %1722, %1633 : tensor<32x32xf32>
    %cst_460 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1724 = stablehlo.broadcast_in_dim %cst_460, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %1725 = stablehlo.multiply %1724, %1639 : tensor<3xf32>
    %cst_461 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1726 = stablehlo.broadcast_in_dim %cst_461, dims = [] : (tensor<f32>) -> tensor<32x3xf32>
    %1727 = stablehlo.multiply %1726, %1645 : tensor<32x3xf32>
    %1728 = stablehlo.add %arg0, %1647 : tensor<32xf32>
    %1729 = stablehlo.add %arg1, %1649 : tensor<32xf32>
    %1730 = stablehlo.add %arg2, %1651 : tensor<16x32xf32>
    %1731 = stablehlo.add %arg3, %1653 : tensor<2x32xf32>
    %1732 = stablehlo.add %arg4, %1655 : tensor<64x32xf32>
    %1733 = stablehlo.add %arg5, %1657 : tensor<32xf32>
    %1734 = stablehlo.add %arg6, %1659 : tensor<32xf32>
    %1735 = stablehlo.add %arg7, %1661 : tensor<32xf32>
    %1736 = stablehlo.add %arg8, %1663 : tensor<32x32xf32>
    %1737 = stablehlo.add %arg9, %1665 : tensor<32xf32>
    %1738 = stablehlo.add %arg10, %1667 : tensor<32x32xf32>
    %1739 = stablehlo.add %arg11, %1669 : tensor<32xf32>
    %1740 = stablehlo.add %arg12, %1671 : tensor<32x32xf32>
    %1741 = stablehlo.add %arg13, %1673 : tensor<32xf32>
    %1742 = stablehlo.add %arg14, %1675 : tensor<32x32xf32>
    %1743 = stablehlo.add %arg15, %1677 : tensor<64xf32>
    %1744 = stablehlo.add %arg16, %1679 : tensor<32x64xf32>
    %1745 = stablehlo.add %arg17, %1681 : tensor<32xf32>
    %1746 = stablehlo.add %arg18, %1683 : tensor<32xf32>
    %1747 = stablehlo.add %arg19, %1685 : tensor<32xf32>
    %1748 = stablehlo.add %arg20, %1687 : tensor<64x32xf32>
    %1749 = stablehlo.add %arg21, %1689 : tensor<32xf32>
    %1750 = stablehlo.add %arg22, %1691 : tensor<32xf32>
    %1751 = stablehlo.add %arg23, %1693 : tensor<32xf32>
    %1752 = stablehlo.add %arg24, %1695 : tensor<32x32xf32>
    %1753 = stablehlo.add %arg25, %1697 : tensor<32xf32>
    %1754 = stablehlo.add %arg26, %1699 : tensor<32x32xf32>
    %1755 = stablehlo.add %arg27, %1701 : tensor<32xf32>
    %1756 = stablehlo.add %arg28, %1703 : tensor<32x32xf32>
    %1757 = stablehlo.add %arg29, %1705 : tensor<32xf32>
    %1758 = stablehlo.add %arg30, %1707 : tensor<32x32xf32>
    %1759 = stablehlo.add %arg31, %1709 : tensor<64xf32>
    %1760 = stablehlo.add %arg32, %1711 : tensor<32x64xf32>
    %1761 = stablehlo.add %arg33, %1713 : tensor<32xf32>
    %1762 = stablehlo.add %arg34, %1715 : tensor<32xf32>
    %1763 = stablehlo.add %arg35, %1717 : tensor<32xf32>
    %1764 = stablehlo.add %arg36, %1719 : tensor<64x32xf32>
    %1765 = stablehlo.add %arg37, %1721 : tensor<32xf32>
    %1766 = stablehlo.add %arg38, %1723 : tensor<32x32xf32>
    %1767 = stablehlo.add %arg39, %1725 : tensor<3xf32>
    %1768 = stablehlo.add %arg40, %1727 : tensor<32x3xf32>
    return %1728, %1729, %1730, %1731, %1732, %1733, %1734, %1735, %1736, %1737, %1738, %1739, %1740, %1741, %1742, %1743, %1744, %1745, %1746, %1747, %1748, %1749, %1750, %1751, %1752, %1753, %1754, %1755, %1756, %1757, %1758, %1759, %1760, %1761, %1762, %1763, %1764, %1765, %1766, %1767, %1768, %1229, %780, %785, %790, %795, %800, %805, %810, %815, %820, %825, %830, %835, %840, %845, %850, %855, %860, %865, %870, %875, %880, %885, %890, %895, %900, %905, %910, %915, %920, %925, %930, %935, %940, %945, %950, %955, %960, %965, %970, %975, %980, %986, %992, %998, %1004, %1010, %1016, %1022, %1028, %1034, %1040, %1046, %1052, %1058, %1064, %1070, %1076, %1082, %1088, %1094, %1100, %1106, %1112, %1118, %1124, %1130, %1136, %1142, %1148, %1154, %1160, %1166, %1172, %1178, %1184, %1190, %1196, %1202, %1208, %1214, %1220, %1226, %412 : tensor<32xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<2x32xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<64xf32>, tensor<32x64xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<64xf32>, tensor<32x64xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<3xf32>, tensor<32x3xf32>, tensor<i32>, tensor<32xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<2x32xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<64xf32>, tensor<32x64xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<64xf32>, tensor<32x64xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<3xf32>, tensor<32x3xf32>, tensor<32xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<2x32xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<64xf32>, tensor<32x64xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<64xf32>, tensor<32x64xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<3xf32>, tensor<32x3xf32>, tensor<f32>
  }
  func.func private @_take(%arg0: tensor<64x32xf32>, %arg1: tensor<8x8xi32>) -> (tensor<8x8x32xf32>, tensor<8x8x1xi32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %c_0 = stablehlo.constant dense<64> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<8x8xi32>
    %4 = call @_where(%1, %3, %arg1) : (tensor<8x8xi1>, tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<8x8xi32>) -> tensor<8x8x1xi32>
    %c_1 = stablehlo.constant dense<63> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<8x8x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<8x8x1xi32>, tensor<8x8x1xi32>) -> tensor<8x8x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<8x8x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<8x8x1xi32>, tensor<8x8x1xi32>) -> tensor<8x8x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<8x8x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<8x8x1xi1>, tensor<i1>) -> tensor<8x8xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xf32>, tensor<8x8x1xi32>) -> tensor<8x8x32xf32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<8x8xi1>) -> tensor<8x8x32xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8x32xf32>
    %16 = stablehlo.select %14, %13, %15 : tensor<8x8x32xi1>, tensor<8x8x32xf32>
    return %16, %5 : tensor<8x8x32xf32>, tensor<8x8x1xi32>
  }
  func.func private @_where(%arg0: tensor<8x8xi1>, %arg1: tensor<8x8xi32>, %arg2: tensor<8x8xi32>) -> tensor<8x8xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<8x8xi1>, tensor<8x8xi32>
    return %0 : tensor<8x8xi32>
  }
  func.func private @_take_0(%arg0: tensor<16x32xf32>, %arg1: tensor<8x8xi32>) -> (tensor<8x8x32xf32>, tensor<8x8x1xi32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %c_0 = stablehlo.constant dense<16> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<8x8xi32>
    %4 = call @_where(%1, %3, %arg1) : (tensor<8x8xi1>, tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<8x8xi32>) -> tensor<8x8x1xi32>
    %c_1 = stablehlo.constant dense<15> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<8x8x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<8x8x1xi32>, tensor<8x8x1xi32>) -> tensor<8x8x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<8x8x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<8x8x1xi32>, tensor<8x8x1xi32>) -> tensor<8x8x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<8x8x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<8x8x1xi1>, tensor<i1>) -> tensor<8x8xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<16x32xf32>, tensor<8x8x1xi32>) -> tensor<8x8x32xf32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<8x8xi1>) -> tensor<8x8x32xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8x32xf32>
    %16 = stablehlo.select %14, %13, %15 : tensor<8x8x32xi1>, tensor<8x8x32xf32>
    return %16, %5 : tensor<8x8x32xf32>, tensor<8x8x1xi32>
  }
  func.func private @_take_1(%arg0: tensor<2x32xf32>, %arg1: tensor<8x8xi32>) -> (tensor<8x8x32xf32>, tensor<8x8x1xi32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %c_0 = stablehlo.constant dense<2> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<8x8xi32>
    %4 = call @_where(%1, %3, %arg1) : (tensor<8x8xi1>, tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<8x8xi32>) -> tensor<8x8x1xi32>
    %c_1 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<8x8x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<8x8x1xi32>, tensor<8x8x1xi32>) -> tensor<8x8x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<8x8x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<8x8x1xi32>, tensor<8x8x1xi32>) -> tensor<8x8x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<8x8x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<8x8x1xi1>, tensor<i1>) -> tensor<8x8xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<2x32xf32>, tensor<8x8x1xi32>) -> tensor<8x8x32xf32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<8x8xi1>) -> tensor<8x8x32xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8x32xf32>
    %16 = stablehlo.select %14, %13, %15 : tensor<8x8x32xi1>, tensor<8x8x32xf32>
    return %16, %5 : tensor<8x8x32xf32>, tensor<8x8x1xi32>
  }
  func.func private @take_along_axis(%arg0: tensor<8x3xf32>, %arg1: tensor<8x1xi32>) -> (tensor<8x1xf32>, tensor<8x1x1xi32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x1xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x1xi1>
    %c_0 = stablehlo.constant dense<3> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8x1xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<8x1xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<8x1xi1>, tensor<8x1xi32>
    %5 = stablehlo.reshape %4 : (tensor<8x1xi32>) -> tensor<8x1x1xi32>
    %c_1 = stablehlo.constant dense<2> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<8x1x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<8x1x1xi32>, tensor<8x1x1xi32>) -> tensor<8x1x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<8x1x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<8x1x1xi32>, tensor<8x1x1xi32>) -> tensor<8x1x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<8x1x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<8x1x1xi1>, tensor<i1>) -> tensor<8x1xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x3xf32>, tensor<8x1x1xi32>) -> tensor<8x1xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<8x1xi1>, tensor<8x1xf32>
    return %15, %5 : tensor<8x1xf32>, tensor<8x1x1xi32>
  }
  func.func private @_take_2(%arg0: tensor<8x1xf32>, %arg1: tensor<i32>) -> (tensor<8xf32>, tensor<1xi32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare LT, %arg1, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.add %arg1, %c_0 : tensor<i32>
    %2 = call @_where_3(%0, %1, %arg1) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<1xi32>
    %4 = stablehlo.convert %3 : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %6 = stablehlo.compare GE, %4, %5, SIGNED : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    %7 = stablehlo.compare LE, %4, %c_1, SIGNED : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    %8 = stablehlo.and %6, %7 : tensor<1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %9 = stablehlo.reduce(%8 init: %c_3) applies stablehlo.and across dimensions = [0] : (tensor<1xi1>, tensor<i1>) -> tensor<i1>
    %10 = "stablehlo.gather"(%arg0, %4) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1]>, indices_are_sorted = false, slice_sizes = array<i64: 8, 1>}> : (tensor<8x1xf32>, tensor<1xi32>) -> tensor<8xf32>
    %11 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i1>) -> tensor<8xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %13 = stablehlo.select %11, %10, %12 : tensor<8xi1>, tensor<8xf32>
    return %13, %3 : tensor<8xf32>, tensor<1xi32>
  }
  func.func private @_where_3(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @_take_4(%arg0: tensor<1xi32>, %arg1: tensor<8xf32>) -> tensor<8x1xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1]>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<8x1xf32>, tensor<1xi32>, tensor<8xf32>) -> tensor<8x1xf32>
    return %1 : tensor<8x1xf32>
  }
  func.func private @take_along_axis_5(%arg0: tensor<8x1x1xi32>, %arg1: tensor<8x1xf32>) -> tensor<8x3xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x3xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<8x3xf32>, tensor<8x1x1xi32>, tensor<8x1xf32>) -> tensor<8x3xf32>
    return %1 : tensor<8x3xf32>
  }
  func.func private @_take_6(%arg0: tensor<8x8x1xi32>, %arg1: tensor<8x8x32xf32>) -> tensor<2x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<2x32xf32>, tensor<8x8x1xi32>, tensor<8x8x32xf32>) -> tensor<2x32xf32>
    return %1 : tensor<2x32xf32>
  }
  func.func private @_take_7(%arg0: tensor<8x8x1xi32>, %arg1: tensor<8x8x32xf32>) -> tensor<16x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<16x32xf32>, tensor<8x8x1xi32>, tensor<8x8x32xf32>) -> tensor<16x32xf32>
    return %1 : tensor<16x32xf32>
  }
  func.func private @_take_8(%arg0: tensor<8x8x1xi32>, %arg1: tensor<8x8x32xf32>) -> tensor<64x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<64x32xf32>, tensor<8x8x1xi32>, tensor<8x8x32xf32>) -> tensor<64x32xf32>
    return %1 : tensor<64x32xf32>
  }
  func.func private @_where_9(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
