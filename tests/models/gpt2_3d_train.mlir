module @jit_step attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["dp"=2, "fsdp"=2, "tp"=2]> {stablehlo.mesh = {axes = [{name = "dp", size = 2 : i64}, {name = "fsdp", size = 2 : i64}, {name = "tp", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<96xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg1: tensor<96x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg2: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg3: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg4: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg5: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg6: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg7: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg8: tensor<128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg9: tensor<128x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg10: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg11: tensor<32x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg12: tensor<96xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg13: tensor<96x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg14: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg15: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg16: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg17: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg18: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg19: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg20: tensor<128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg21: tensor<128x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg22: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg23: tensor<32x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg24: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg25: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg26: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"fsdp"}]>}, %arg27: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg28: tensor<i32> {sdy.sharding = #sdy.sharding<@mesh, []>}, %arg29: tensor<96xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg30: tensor<96x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg31: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg32: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg33: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg34: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg35: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg36: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg37: tensor<128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg38: tensor<128x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg39: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg40: tensor<32x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg41: tensor<96xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg42: tensor<96x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg43: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg44: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg45: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg46: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg47: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg48: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg49: tensor<128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg50: tensor<128x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg51: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg52: tensor<32x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg53: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg54: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg55: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"fsdp"}]>}, %arg56: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg57: tensor<96xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg58: tensor<96x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg59: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg60: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg61: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg62: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg63: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg64: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg65: tensor<128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg66: tensor<128x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg67: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg68: tensor<32x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg69: tensor<96xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg70: tensor<96x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg71: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg72: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg73: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg74: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg75: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg76: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg77: tensor<128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg78: tensor<128x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg79: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg80: tensor<32x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg81: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg82: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg83: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"fsdp"}]>}, %arg84: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg85: tensor<4x9xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"dp", "fsdp"}, {}]>}) -> (tensor<96xf32> {jax.result_info = "result[0]['transformer']['h']['0']['attn']['c_attn']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<96x32xf32> {jax.result_info = "result[0]['transformer']['h']['0']['attn']['c_attn']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[0]['transformer']['h']['0']['attn']['c_proj']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x32xf32> {jax.result_info = "result[0]['transformer']['h']['0']['attn']['c_proj']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[0]['transformer']['h']['0']['ln_1']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[0]['transformer']['h']['0']['ln_1']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[0]['transformer']['h']['0']['ln_2']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[0]['transformer']['h']['0']['ln_2']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<128xf32> {jax.result_info = "result[0]['transformer']['h']['0']['mlp']['c_fc']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<128x32xf32> {jax.result_info = "result[0]['transformer']['h']['0']['mlp']['c_fc']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[0]['transformer']['h']['0']['mlp']['c_proj']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x128xf32> {jax.result_info = "result[0]['transformer']['h']['0']['mlp']['c_proj']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<96xf32> {jax.result_info = "result[0]['transformer']['h']['1']['attn']['c_attn']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<96x32xf32> {jax.result_info = "result[0]['transformer']['h']['1']['attn']['c_attn']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[0]['transformer']['h']['1']['attn']['c_proj']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x32xf32> {jax.result_info = "result[0]['transformer']['h']['1']['attn']['c_proj']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[0]['transformer']['h']['1']['ln_1']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[0]['transformer']['h']['1']['ln_1']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[0]['transformer']['h']['1']['ln_2']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[0]['transformer']['h']['1']['ln_2']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<128xf32> {jax.result_info = "result[0]['transformer']['h']['1']['mlp']['c_fc']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<128x32xf32> {jax.result_info = "result[0]['transformer']['h']['1']['mlp']['c_fc']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[0]['transformer']['h']['1']['mlp']['c_proj']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x128xf32> {jax.result_info = "result[0]['transformer']['h']['1']['mlp']['c_proj']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[0]['transformer']['ln_f']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[0]['transformer']['ln_f']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<16x32xf32> {jax.result_info = "result[0]['transformer']['wpe']['embedding']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"fsdp"}]>}, tensor<64x32xf32> {jax.result_info = "result[0]['transformer']['wte']['embedding']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<i32> {jax.result_info = "result[1][0].count", sdy.sharding = #sdy.sharding<@mesh, []>}, tensor<96xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['0']['attn']['c_attn']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<96x32xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['0']['attn']['c_attn']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['0']['attn']['c_proj']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['0']['attn']['c_proj']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['0']['ln_1']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['0']['ln_1']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['0']['ln_2']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['0']['ln_2']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<128xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['0']['mlp']['c_fc']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<128x32xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['0']['mlp']['c_fc']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['0']['mlp']['c_proj']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x128xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['0']['mlp']['c_proj']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<96xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['1']['attn']['c_attn']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<96x32xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['1']['attn']['c_attn']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['1']['attn']['c_proj']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['1']['attn']['c_proj']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['1']['ln_1']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['1']['ln_1']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['1']['ln_2']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['1']['ln_2']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<128xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['1']['mlp']['c_fc']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<128x32xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['1']['mlp']['c_fc']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['1']['mlp']['c_proj']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x128xf32> {jax.result_info = "result[1][0].mu['transformer']['h']['1']['mlp']['c_proj']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['transformer']['ln_f']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['transformer']['ln_f']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<16x32xf32> {jax.result_info = "result[1][0].mu['transformer']['wpe']['embedding']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"fsdp"}]>}, tensor<64x32xf32> {jax.result_info = "result[1][0].mu['transformer']['wte']['embedding']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<96xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['0']['attn']['c_attn']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<96x32xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['0']['attn']['c_attn']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['0']['attn']['c_proj']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['0']['attn']['c_proj']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['0']['ln_1']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['0']['ln_1']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['0']['ln_2']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['0']['ln_2']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<128xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['0']['mlp']['c_fc']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<128x32xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['0']['mlp']['c_fc']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['0']['mlp']['c_proj']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x128xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['0']['mlp']['c_proj']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<96xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['1']['attn']['c_attn']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<96x32xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['1']['attn']['c_attn']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['1']['attn']['c_proj']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x32xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['1']['attn']['c_proj']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['1']['ln_1']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['1']['ln_1']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['1']['ln_2']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['1']['ln_2']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<128xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['1']['mlp']['c_fc']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<128x32xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['1']['mlp']['c_fc']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['1']['mlp']['c_proj']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x128xf32> {jax.result_info = "result[1][0].nu['transformer']['h']['1']['mlp']['c_proj']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['transformer']['ln_f']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['transformer']['ln_f']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<16x32xf32> {jax.result_info = "result[1][0].nu['transformer']['wpe']['embedding']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"fsdp"}]>}, tensor<64x32xf32> {jax.result_info = "result[1][0].nu['transformer']['wte']['embedding']", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<f32> {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, []>}) {
    %0 = stablehlo.slice %arg85 [0:4, 0:8] : (tensor<4x9xi32>) -> tensor<4x8xi32>
    %1 = stablehlo.iota dim = 0 : tensor<8xi32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<8xi32>) -> tensor<1x8xi32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<1x8xi32>) -> tensor<4x8xi32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %5 = stablehlo.convert %4 : (tensor<4x8xf32>) -> tensor<4x8xi32>
    %6:2 = call @_take(%arg27, %0) : (tensor<64x32xf32>, tensor<4x8xi32>) -> (tensor<4x8x32xf32>, tensor<4x8x1xi32>)
    %7:2 = call @_take_0(%arg26, %3) : (tensor<16x32xf32>, tensor<4x8xi32>) -> (tensor<4x8x32xf32>, tensor<4x8x1xi32>)
    %8 = stablehlo.add %6#0, %7#0 : tensor<4x8x32xf32>
    %9 = chlo.square %8 : tensor<4x8x32xf32> -> tensor<4x8x32xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x8x32xf32>
    %11 = stablehlo.multiply %10, %8 : tensor<4x8x32xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.reduce(%8 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_2 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %14 = stablehlo.divide %12, %13 : tensor<4x8xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.reduce(%9 init: %cst_3) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_4 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %17 = stablehlo.divide %15, %16 : tensor<4x8xf32>
    %18 = chlo.square %14 : tensor<4x8xf32> -> tensor<4x8xf32>
    %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %20 = stablehlo.multiply %19, %14 : tensor<4x8xf32>
    %21 = stablehlo.subtract %17, %18 : tensor<4x8xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %23 = stablehlo.maximum %22, %21 : tensor<4x8xf32>
    %24 = stablehlo.compare EQ, %21, %23, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %27 = stablehlo.select %24, %25, %26 : tensor<4x8xi1>, tensor<4x8xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %29 = stablehlo.compare EQ, %28, %23, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_10 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_11 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %32 = stablehlo.select %29, %30, %31 : tensor<4x8xi1>, tensor<4x8xf32>
    %33 = stablehlo.divide %27, %32 : tensor<4x8xf32>
    %34 = stablehlo.broadcast_in_dim %14, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %35 = stablehlo.broadcast_in_dim %23, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %36 = stablehlo.broadcast_in_dim %34, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %37 = stablehlo.subtract %8, %36 : tensor<4x8x32xf32>
    %cst_12 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %39 = stablehlo.add %35, %38 : tensor<4x8x1xf32>
    %40 = stablehlo.rsqrt %39 : tensor<4x8x1xf32>
    %41 = stablehlo.divide %40, %39 : tensor<4x8x1xf32>
    %cst_13 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %43 = stablehlo.multiply %42, %41 : tensor<4x8x1xf32>
    %44 = stablehlo.reshape %arg5 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %45 = stablehlo.broadcast_in_dim %40, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %46 = stablehlo.broadcast_in_dim %44, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %47 = stablehlo.multiply %45, %46 : tensor<4x8x32xf32>
    %48 = stablehlo.multiply %37, %47 : tensor<4x8x32xf32>
    %49 = stablehlo.reshape %arg4 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %50 = stablehlo.broadcast_in_dim %49, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %51 = stablehlo.add %48, %50 : tensor<4x8x32xf32>
    %52 = stablehlo.iota dim = 0 : tensor<16xi32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<1x16x1xi32>
    %55 = stablehlo.broadcast_in_dim %53, dims = [0, 2] : (tensor<1x16xi32>) -> tensor<1x1x16xi32>
    %56 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2] : (tensor<1x16x1xi32>) -> tensor<1x16x16xi32>
    %57 = stablehlo.broadcast_in_dim %55, dims = [0, 1, 2] : (tensor<1x1x16xi32>) -> tensor<1x16x16xi32>
    %58 = stablehlo.compare GE, %56, %57, SIGNED : (tensor<1x16x16xi32>, tensor<1x16x16xi32>) -> tensor<1x16x16xi1>
    %59 = stablehlo.broadcast_in_dim %58, dims = [0, 2, 3] : (tensor<1x16x16xi1>) -> tensor<1x1x16x16xi1>
    %60 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<96x32xf32>) -> tensor<32x96xf32>
    %61 = stablehlo.dot_general %51, %60, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x96xf32>) -> tensor<4x8x96xf32>
    %62 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<96xf32>) -> tensor<1x1x96xf32>
    %63 = stablehlo.broadcast_in_dim %62, dims = [0, 1, 2] : (tensor<1x1x96xf32>) -> tensor<4x8x96xf32>
    %64 = stablehlo.add %61, %63 : tensor<4x8x96xf32>
    %65 = stablehlo.slice %64 [0:4, 0:8, 0:32] : (tensor<4x8x96xf32>) -> tensor<4x8x32xf32>
    %66 = stablehlo.slice %64 [0:4, 0:8, 32:64] : (tensor<4x8x96xf32>) -> tensor<4x8x32xf32>
    %67 = stablehlo.slice %64 [0:4, 0:8, 64:96] : (tensor<4x8x96xf32>) -> tensor<4x8x32xf32>
    %68 = stablehlo.reshape %65 : (tensor<4x8x32xf32>) -> tensor<4x8x4x8xf32>
    %69 = stablehlo.reshape %66 : (tensor<4x8x32xf32>) -> tensor<4x8x4x8xf32>
    %70 = stablehlo.reshape %67 : (tensor<4x8x32xf32>) -> tensor<4x8x4x8xf32>
    %71 = stablehlo.slice %59 [0:1, 0:1, 0:8, 0:8] : (tensor<1x1x16x16xi1>) -> tensor<1x1x8x8xi1>
    %72 = stablehlo.broadcast_in_dim %71, dims = [0, 1, 2, 3] : (tensor<1x1x8x8xi1>) -> tensor<4x1x8x8xi1>
    %73 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<4x8xi32>) -> tensor<4x1x1x8xi32>
    %74 = stablehlo.broadcast_in_dim %73, dims = [0, 1, 2, 3] : (tensor<4x1x1x8xi32>) -> tensor<4x1x8x8xi32>
    %75 = stablehlo.convert %72 : (tensor<4x1x8x8xi1>) -> tensor<4x1x8x8xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %76 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x1x8x8xi32>
    %77 = stablehlo.compare NE, %74, %76, SIGNED : (tensor<4x1x8x8xi32>, tensor<4x1x8x8xi32>) -> tensor<4x1x8x8xi1>
    %c_14 = stablehlo.constant dense<0> : tensor<i32>
    %78 = stablehlo.broadcast_in_dim %c_14, dims = [] : (tensor<i32>) -> tensor<4x1x8x8xi32>
    %79 = stablehlo.compare NE, %75, %78, SIGNED : (tensor<4x1x8x8xi32>, tensor<4x1x8x8xi32>) -> tensor<4x1x8x8xi1>
    %80 = stablehlo.and %77, %79 : tensor<4x1x8x8xi1>
    %81 = stablehlo.convert %80 : (tensor<4x1x8x8xi1>) -> tensor<4x1x8x8xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %82 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<4x1x8x8xf32>
    %83 = stablehlo.compare GT, %81, %82, FLOAT : (tensor<4x1x8x8xf32>, tensor<4x1x8x8xf32>) -> tensor<4x1x8x8xi1>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %84 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<4x1x8x8xf32>
    %85 = stablehlo.convert %84 : tensor<4x1x8x8xf32>
    %cst_17 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %86 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<4x1x8x8xf32>
    %87 = stablehlo.select %83, %85, %86 : tensor<4x1x8x8xi1>, tensor<4x1x8x8xf32>
    %cst_18 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %88 = stablehlo.sqrt %cst_18 : tensor<f32>
    %89 = stablehlo.convert %88 : tensor<f32>
    %90 = stablehlo.broadcast_in_dim %89, dims = [] : (tensor<f32>) -> tensor<4x8x4x8xf32>
    %91 = stablehlo.divide %68, %90 : tensor<4x8x4x8xf32>
    %92 = stablehlo.dot_general %91, %69, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xf32>, tensor<4x8x4x8xf32>) -> tensor<4x4x8x8xf32>
    %93 = stablehlo.broadcast_in_dim %87, dims = [0, 1, 2, 3] : (tensor<4x1x8x8xf32>) -> tensor<4x4x8x8xf32>
    %94 = stablehlo.add %92, %93 : tensor<4x4x8x8xf32>
    %cst_19 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %95 = stablehlo.reduce(%94 init: %cst_19) applies stablehlo.maximum across dimensions = [3] : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %cst_20 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %96 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<4x4x8xf32>
    %97 = stablehlo.maximum %96, %95 : tensor<4x4x8xf32>
    %98 = stablehlo.broadcast_in_dim %97, dims = [0, 1, 2] : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %99 = stablehlo.broadcast_in_dim %98, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %100 = stablehlo.subtract %94, %99 : tensor<4x4x8x8xf32>
    %101 = stablehlo.exponential %100 : tensor<4x4x8x8xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %102 = stablehlo.reduce(%101 init: %cst_21) applies stablehlo.add across dimensions = [3] : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %103 = stablehlo.broadcast_in_dim %102, dims = [0, 1, 2] : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %104 = stablehlo.broadcast_in_dim %103, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %105 = stablehlo.divide %101, %104 : tensor<4x4x8x8xf32>
    %106 = stablehlo.multiply %103, %103 : tensor<4x4x8x1xf32>
    %cst_22 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %107 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<4x4x8x1xf32>
    %108 = stablehlo.divide %107, %106 : tensor<4x4x8x1xf32>
    %109 = stablehlo.dot_general %70, %105, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %110 = stablehlo.transpose %109, dims = [0, 3, 1, 2] : (tensor<4x4x8x8xf32>) -> tensor<4x8x4x8xf32>
    %111 = stablehlo.reshape %110 : (tensor<4x8x4x8xf32>) -> tensor<4x8x32xf32>
    %112 = stablehlo.transpose %arg3, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %113 = stablehlo.dot_general %111, %112, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %114 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %115 = stablehlo.broadcast_in_dim %114, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %116 = stablehlo.add %113, %115 : tensor<4x8x32xf32>
    %117 = stablehlo.add %116, %8 : tensor<4x8x32xf32>
    %118 = chlo.square %117 : tensor<4x8x32xf32> -> tensor<4x8x32xf32>
    %cst_23 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %119 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<4x8x32xf32>
    %120 = stablehlo.multiply %119, %117 : tensor<4x8x32xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %121 = stablehlo.reduce(%117 init: %cst_24) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_25 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %122 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %123 = stablehlo.divide %121, %122 : tensor<4x8xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %124 = stablehlo.reduce(%118 init: %cst_26) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_27 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %125 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %126 = stablehlo.divide %124, %125 : tensor<4x8xf32>
    %127 = chlo.square %123 : tensor<4x8xf32> -> tensor<4x8xf32>
    %cst_28 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %128 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %129 = stablehlo.multiply %128, %123 : tensor<4x8xf32>
    %130 = stablehlo.subtract %126, %127 : tensor<4x8xf32>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %131 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %132 = stablehlo.maximum %131, %130 : tensor<4x8xf32>
    %133 = stablehlo.compare EQ, %130, %132, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_30 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %134 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %135 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %136 = stablehlo.select %133, %134, %135 : tensor<4x8xi1>, tensor<4x8xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %137 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %138 = stablehlo.compare EQ, %137, %132, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_33 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %139 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_34 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %140 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %141 = stablehlo.select %138, %139, %140 : tensor<4x8xi1>, tensor<4x8xf32>
    %142 = stablehlo.divide %136, %141 : tensor<4x8xf32>
    %143 = stablehlo.broadcast_in_dim %123, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %144 = stablehlo.broadcast_in_dim %132, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %145 = stablehlo.broadcast_in_dim %143, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %146 = stablehlo.subtract %117, %145 : tensor<4x8x32xf32>
    %cst_35 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %147 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %148 = stablehlo.add %144, %147 : tensor<4x8x1xf32>
    %149 = stablehlo.rsqrt %148 : tensor<4x8x1xf32>
    %150 = stablehlo.divide %149, %148 : tensor<4x8x1xf32>
    %cst_36 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %151 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %152 = stablehlo.multiply %151, %150 : tensor<4x8x1xf32>
    %153 = stablehlo.reshape %arg7 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %154 = stablehlo.broadcast_in_dim %149, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %155 = stablehlo.broadcast_in_dim %153, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %156 = stablehlo.multiply %154, %155 : tensor<4x8x32xf32>
    %157 = stablehlo.multiply %146, %156 : tensor<4x8x32xf32>
    %158 = stablehlo.reshape %arg6 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %159 = stablehlo.broadcast_in_dim %158, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %160 = stablehlo.add %157, %159 : tensor<4x8x32xf32>
    %161 = stablehlo.transpose %arg9, dims = [1, 0] : (tensor<128x32xf32>) -> tensor<32x128xf32>
    %162 = stablehlo.dot_general %160, %161, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x128xf32>) -> tensor<4x8x128xf32>
    %163 = stablehlo.broadcast_in_dim %arg8, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %164 = stablehlo.broadcast_in_dim %163, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<4x8x128xf32>
    %165 = stablehlo.add %162, %164 : tensor<4x8x128xf32>
    %166 = stablehlo.multiply %165, %165 : tensor<4x8x128xf32>
    %167 = stablehlo.multiply %166, %165 : tensor<4x8x128xf32>
    %168 = stablehlo.multiply %165, %165 : tensor<4x8x128xf32>
    %cst_37 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %169 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<4x8x128xf32>
    %170 = stablehlo.multiply %169, %168 : tensor<4x8x128xf32>
    %cst_38 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %171 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<4x8x128xf32>
    %172 = stablehlo.multiply %171, %167 : tensor<4x8x128xf32>
    %173 = stablehlo.add %165, %172 : tensor<4x8x128xf32>
    %cst_39 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %174 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<4x8x128xf32>
    %175 = stablehlo.multiply %174, %173 : tensor<4x8x128xf32>
    %176 = stablehlo.tanh %175 : tensor<4x8x128xf32>
    %cst_40 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %177 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<4x8x128xf32>
    %178 = stablehlo.subtract %177, %176 : tensor<4x8x128xf32>
    %cst_41 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %179 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f32>) -> tensor<4x8x128xf32>
    %180 = stablehlo.add %179, %176 : tensor<4x8x128xf32>
    %cst_42 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %181 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<4x8x128xf32>
    %182 = stablehlo.multiply %181, %180 : tensor<4x8x128xf32>
    %183 = stablehlo.multiply %165, %182 : tensor<4x8x128xf32>
    %184 = stablehlo.transpose %arg11, dims = [1, 0] : (tensor<32x128xf32>) -> tensor<128x32xf32>
    %185 = stablehlo.dot_general %183, %184, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x128xf32>, tensor<128x32xf32>) -> tensor<4x8x32xf32>
    %186 = stablehlo.broadcast_in_dim %arg10, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %187 = stablehlo.broadcast_in_dim %186, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %188 = stablehlo.add %185, %187 : tensor<4x8x32xf32>
    %189 = stablehlo.add %117, %188 : tensor<4x8x32xf32>
    %190 = chlo.square %189 : tensor<4x8x32xf32> -> tensor<4x8x32xf32>
    %cst_43 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %191 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<4x8x32xf32>
    %192 = stablehlo.multiply %191, %189 : tensor<4x8x32xf32>
    %cst_44 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %193 = stablehlo.reduce(%189 init: %cst_44) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_45 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %194 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %195 = stablehlo.divide %193, %194 : tensor<4x8xf32>
    %cst_46 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %196 = stablehlo.reduce(%190 init: %cst_46) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_47 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %197 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %198 = stablehlo.divide %196, %197 : tensor<4x8xf32>
    %199 = chlo.square %195 : tensor<4x8xf32> -> tensor<4x8xf32>
    %cst_48 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %200 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %201 = stablehlo.multiply %200, %195 : tensor<4x8xf32>
    %202 = stablehlo.subtract %198, %199 : tensor<4x8xf32>
    %cst_49 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %203 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %204 = stablehlo.maximum %203, %202 : tensor<4x8xf32>
    %205 = stablehlo.compare EQ, %202, %204, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_50 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %206 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_51 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %207 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %208 = stablehlo.select %205, %206, %207 : tensor<4x8xi1>, tensor<4x8xf32>
    %cst_52 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %209 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %210 = stablehlo.compare EQ, %209, %204, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_53 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %211 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_54 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %212 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %213 = stablehlo.select %210, %211, %212 : tensor<4x8xi1>, tensor<4x8xf32>
    %214 = stablehlo.divide %208, %213 : tensor<4x8xf32>
    %215 = stablehlo.broadcast_in_dim %195, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %216 = stablehlo.broadcast_in_dim %204, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %217 = stablehlo.broadcast_in_dim %215, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %218 = stablehlo.subtract %189, %217 : tensor<4x8x32xf32>
    %cst_55 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %219 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %220 = stablehlo.add %216, %219 : tensor<4x8x1xf32>
    %221 = stablehlo.rsqrt %220 : tensor<4x8x1xf32>
    %222 = stablehlo.divide %221, %220 : tensor<4x8x1xf32>
    %cst_56 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %223 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %224 = stablehlo.multiply %223, %222 : tensor<4x8x1xf32>
    %225 = stablehlo.reshape %arg17 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %226 = stablehlo.broadcast_in_dim %221, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %227 = stablehlo.broadcast_in_dim %225, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %228 = stablehlo.multiply %226, %227 : tensor<4x8x32xf32>
    %229 = stablehlo.multiply %218, %228 : tensor<4x8x32xf32>
    %230 = stablehlo.reshape %arg16 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %231 = stablehlo.broadcast_in_dim %230, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %232 = stablehlo.add %229, %231 : tensor<4x8x32xf32>
    %233 = stablehlo.iota dim = 0 : tensor<16xi32>
    %234 = stablehlo.broadcast_in_dim %233, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %235 = stablehlo.broadcast_in_dim %234, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<1x16x1xi32>
    %236 = stablehlo.broadcast_in_dim %234, dims = [0, 2] : (tensor<1x16xi32>) -> tensor<1x1x16xi32>
    %237 = stablehlo.broadcast_in_dim %235, dims = [0, 1, 2] : (tensor<1x16x1xi32>) -> tensor<1x16x16xi32>
    %238 = stablehlo.broadcast_in_dim %236, dims = [0, 1, 2] : (tensor<1x1x16xi32>) -> tensor<1x16x16xi32>
    %239 = stablehlo.compare GE, %237, %238, SIGNED : (tensor<1x16x16xi32>, tensor<1x16x16xi32>) -> tensor<1x16x16xi1>
    %240 = stablehlo.broadcast_in_dim %239, dims = [0, 2, 3] : (tensor<1x16x16xi1>) -> tensor<1x1x16x16xi1>
    %241 = stablehlo.transpose %arg13, dims = [1, 0] : (tensor<96x32xf32>) -> tensor<32x96xf32>
    %242 = stablehlo.dot_general %232, %241, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x96xf32>) -> tensor<4x8x96xf32>
    %243 = stablehlo.broadcast_in_dim %arg12, dims = [2] : (tensor<96xf32>) -> tensor<1x1x96xf32>
    %244 = stablehlo.broadcast_in_dim %243, dims = [0, 1, 2] : (tensor<1x1x96xf32>) -> tensor<4x8x96xf32>
    %245 = stablehlo.add %242, %244 : tensor<4x8x96xf32>
    %246 = stablehlo.slice %245 [0:4, 0:8, 0:32] : (tensor<4x8x96xf32>) -> tensor<4x8x32xf32>
    %247 = stablehlo.slice %245 [0:4, 0:8, 32:64] : (tensor<4x8x96xf32>) -> tensor<4x8x32xf32>
    %248 = stablehlo.slice %245 [0:4, 0:8, 64:96] : (tensor<4x8x96xf32>) -> tensor<4x8x32xf32>
    %249 = stablehlo.reshape %246 : (tensor<4x8x32xf32>) -> tensor<4x8x4x8xf32>
    %250 = stablehlo.reshape %247 : (tensor<4x8x32xf32>) -> tensor<4x8x4x8xf32>
    %251 = stablehlo.reshape %248 : (tensor<4x8x32xf32>) -> tensor<4x8x4x8xf32>
    %252 = stablehlo.slice %240 [0:1, 0:1, 0:8, 0:8] : (tensor<1x1x16x16xi1>) -> tensor<1x1x8x8xi1>
    %253 = stablehlo.broadcast_in_dim %252, dims = [0, 1, 2, 3] : (tensor<1x1x8x8xi1>) -> tensor<4x1x8x8xi1>
    %254 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<4x8xi32>) -> tensor<4x1x1x8xi32>
    %255 = stablehlo.broadcast_in_dim %254, dims = [0, 1, 2, 3] : (tensor<4x1x1x8xi32>) -> tensor<4x1x8x8xi32>
    %256 = stablehlo.convert %253 : (tensor<4x1x8x8xi1>) -> tensor<4x1x8x8xi32>
    %c_57 = stablehlo.constant dense<0> : tensor<i32>
    %257 = stablehlo.broadcast_in_dim %c_57, dims = [] : (tensor<i32>) -> tensor<4x1x8x8xi32>
    %258 = stablehlo.compare NE, %255, %257, SIGNED : (tensor<4x1x8x8xi32>, tensor<4x1x8x8xi32>) -> tensor<4x1x8x8xi1>
    %c_58 = stablehlo.constant dense<0> : tensor<i32>
    %259 = stablehlo.broadcast_in_dim %c_58, dims = [] : (tensor<i32>) -> tensor<4x1x8x8xi32>
    %260 = stablehlo.compare NE, %256, %259, SIGNED : (tensor<4x1x8x8xi32>, tensor<4x1x8x8xi32>) -> tensor<4x1x8x8xi1>
    %261 = stablehlo.and %258, %260 : tensor<4x1x8x8xi1>
    %262 = stablehlo.convert %261 : (tensor<4x1x8x8xi1>) -> tensor<4x1x8x8xf32>
    %cst_59 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %263 = stablehlo.broadcast_in_dim %cst_59, dims = [] : (tensor<f32>) -> tensor<4x1x8x8xf32>
    %264 = stablehlo.compare GT, %262, %263, FLOAT : (tensor<4x1x8x8xf32>, tensor<4x1x8x8xf32>) -> tensor<4x1x8x8xi1>
    %cst_60 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %265 = stablehlo.broadcast_in_dim %cst_60, dims = [] : (tensor<f32>) -> tensor<4x1x8x8xf32>
    %266 = stablehlo.convert %265 : tensor<4x1x8x8xf32>
    %cst_61 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %267 = stablehlo.broadcast_in_dim %cst_61, dims = [] : (tensor<f32>) -> tensor<4x1x8x8xf32>
    %268 = stablehlo.select %264, %266, %267 : tensor<4x1x8x8xi1>, tensor<4x1x8x8xf32>
    %cst_62 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %269 = stablehlo.sqrt %cst_62 : tensor<f32>
    %270 = stablehlo.convert %269 : tensor<f32>
    %271 = stablehlo.broadcast_in_dim %270, dims = [] : (tensor<f32>) -> tensor<4x8x4x8xf32>
    %272 = stablehlo.divide %249, %271 : tensor<4x8x4x8xf32>
    %273 = stablehlo.dot_general %272, %250, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xf32>, tensor<4x8x4x8xf32>) -> tensor<4x4x8x8xf32>
    %274 = stablehlo.broadcast_in_dim %268, dims = [0, 1, 2, 3] : (tensor<4x1x8x8xf32>) -> tensor<4x4x8x8xf32>
    %275 = stablehlo.add %273, %274 : tensor<4x4x8x8xf32>
    %cst_63 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %276 = stablehlo.reduce(%275 init: %cst_63) applies stablehlo.maximum across dimensions = [3] : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %cst_64 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %277 = stablehlo.broadcast_in_dim %cst_64, dims = [] : (tensor<f32>) -> tensor<4x4x8xf32>
    %278 = stablehlo.maximum %277, %276 : tensor<4x4x8xf32>
    %279 = stablehlo.broadcast_in_dim %278, dims = [0, 1, 2] : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %280 = stablehlo.broadcast_in_dim %279, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %281 = stablehlo.subtract %275, %280 : tensor<4x4x8x8xf32>
    %282 = stablehlo.exponential %281 : tensor<4x4x8x8xf32>
    %cst_65 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %283 = stablehlo.reduce(%282 init: %cst_65) applies stablehlo.add across dimensions = [3] : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %284 = stablehlo.broadcast_in_dim %283, dims = [0, 1, 2] : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %285 = stablehlo.broadcast_in_dim %284, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %286 = stablehlo.divide %282, %285 : tensor<4x4x8x8xf32>
    %287 = stablehlo.multiply %284, %284 : tensor<4x4x8x1xf32>
    %cst_66 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %288 = stablehlo.broadcast_in_dim %cst_66, dims = [] : (tensor<f32>) -> tensor<4x4x8x1xf32>
    %289 = stablehlo.divide %288, %287 : tensor<4x4x8x1xf32>
    %290 = stablehlo.dot_general %251, %286, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %291 = stablehlo.transpose %290, dims = [0, 3, 1, 2] : (tensor<4x4x8x8xf32>) -> tensor<4x8x4x8xf32>
    %292 = stablehlo.reshape %291 : (tensor<4x8x4x8xf32>) -> tensor<4x8x32xf32>
    %293 = stablehlo.transpose %arg15, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %294 = stablehlo.dot_general %292, %293, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %295 = stablehlo.broadcast_in_dim %arg14, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %296 = stablehlo.broadcast_in_dim %295, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %297 = stablehlo.add %294, %296 : tensor<4x8x32xf32>
    %298 = stablehlo.add %297, %189 : tensor<4x8x32xf32>
    %299 = chlo.square %298 : tensor<4x8x32xf32> -> tensor<4x8x32xf32>
    %cst_67 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %300 = stablehlo.broadcast_in_dim %cst_67, dims = [] : (tensor<f32>) -> tensor<4x8x32xf32>
    %301 = stablehlo.multiply %300, %298 : tensor<4x8x32xf32>
    %cst_68 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %302 = stablehlo.reduce(%298 init: %cst_68) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_69 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %303 = stablehlo.broadcast_in_dim %cst_69, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %304 = stablehlo.divide %302, %303 : tensor<4x8xf32>
    %cst_70 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %305 = stablehlo.reduce(%299 init: %cst_70) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_71 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %306 = stablehlo.broadcast_in_dim %cst_71, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %307 = stablehlo.divide %305, %306 : tensor<4x8xf32>
    %308 = chlo.square %304 : tensor<4x8xf32> -> tensor<4x8xf32>
    %cst_72 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %309 = stablehlo.broadcast_in_dim %cst_72, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %310 = stablehlo.multiply %309, %304 : tensor<4x8xf32>
    %311 = stablehlo.subtract %307, %308 : tensor<4x8xf32>
    %cst_73 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %312 = stablehlo.broadcast_in_dim %cst_73, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %313 = stablehlo.maximum %312, %311 : tensor<4x8xf32>
    %314 = stablehlo.compare EQ, %311, %313, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_74 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %315 = stablehlo.broadcast_in_dim %cst_74, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_75 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %316 = stablehlo.broadcast_in_dim %cst_75, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %317 = stablehlo.select %314, %315, %316 : tensor<4x8xi1>, tensor<4x8xf32>
    %cst_76 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %318 = stablehlo.broadcast_in_dim %cst_76, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %319 = stablehlo.compare EQ, %318, %313, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_77 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %320 = stablehlo.broadcast_in_dim %cst_77, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_78 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %321 = stablehlo.broadcast_in_dim %cst_78, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %322 = stablehlo.select %319, %320, %321 : tensor<4x8xi1>, tensor<4x8xf32>
    %323 = stablehlo.divide %317, %322 : tensor<4x8xf32>
    %324 = stablehlo.broadcast_in_dim %304, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %325 = stablehlo.broadcast_in_dim %313, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %326 = stablehlo.broadcast_in_dim %324, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %327 = stablehlo.subtract %298, %326 : tensor<4x8x32xf32>
    %cst_79 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %328 = stablehlo.broadcast_in_dim %cst_79, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %329 = stablehlo.add %325, %328 : tensor<4x8x1xf32>
    %330 = stablehlo.rsqrt %329 : tensor<4x8x1xf32>
    %331 = stablehlo.divide %330, %329 : tensor<4x8x1xf32>
    %cst_80 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %332 = stablehlo.broadcast_in_dim %cst_80, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %333 = stablehlo.multiply %332, %331 : tensor<4x8x1xf32>
    %334 = stablehlo.reshape %arg19 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %335 = stablehlo.broadcast_in_dim %330, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %336 = stablehlo.broadcast_in_dim %334, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %337 = stablehlo.multiply %335, %336 : tensor<4x8x32xf32>
    %338 = stablehlo.multiply %327, %337 : tensor<4x8x32xf32>
    %339 = stablehlo.reshape %arg18 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %340 = stablehlo.broadcast_in_dim %339, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %341 = stablehlo.add %338, %340 : tensor<4x8x32xf32>
    %342 = stablehlo.transpose %arg21, dims = [1, 0] : (tensor<128x32xf32>) -> tensor<32x128xf32>
    %343 = stablehlo.dot_general %341, %342, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x128xf32>) -> tensor<4x8x128xf32>
    %344 = stablehlo.broadcast_in_dim %arg20, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %345 = stablehlo.broadcast_in_dim %344, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<4x8x128xf32>
    %346 = stablehlo.add %343, %345 : tensor<4x8x128xf32>
    %347 = stablehlo.multiply %346, %346 : tensor<4x8x128xf32>
    %348 = stablehlo.multiply %347, %346 : tensor<4x8x128xf32>
    %349 = stablehlo.multiply %346, %346 : tensor<4x8x128xf32>
    %cst_81 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %350 = stablehlo.broadcast_in_dim %cst_81, dims = [] : (tensor<f32>) -> tensor<4x8x128xf32>
    %351 = stablehlo.multiply %350, %349 : tensor<4x8x128xf32>
    %cst_82 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %352 = stablehlo.broadcast_in_dim %cst_82, dims = [] : (tensor<f32>) -> tensor<4x8x128xf32>
    %353 = stablehlo.multiply %352, %348 : tensor<4x8x128xf32>
    %354 = stablehlo.add %346, %353 : tensor<4x8x128xf32>
    %cst_83 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %355 = stablehlo.broadcast_in_dim %cst_83, dims = [] : (tensor<f32>) -> tensor<4x8x128xf32>
    %356 = stablehlo.multiply %355, %354 : tensor<4x8x128xf32>
    %357 = stablehlo.tanh %356 : tensor<4x8x128xf32>
    %cst_84 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %358 = stablehlo.broadcast_in_dim %cst_84, dims = [] : (tensor<f32>) -> tensor<4x8x128xf32>
    %359 = stablehlo.subtract %358, %357 : tensor<4x8x128xf32>
    %cst_85 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %360 = stablehlo.broadcast_in_dim %cst_85, dims = [] : (tensor<f32>) -> tensor<4x8x128xf32>
    %361 = stablehlo.add %360, %357 : tensor<4x8x128xf32>
    %cst_86 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %362 = stablehlo.broadcast_in_dim %cst_86, dims = [] : (tensor<f32>) -> tensor<4x8x128xf32>
    %363 = stablehlo.multiply %362, %361 : tensor<4x8x128xf32>
    %364 = stablehlo.multiply %346, %363 : tensor<4x8x128xf32>
    %365 = stablehlo.transpose %arg23, dims = [1, 0] : (tensor<32x128xf32>) -> tensor<128x32xf32>
    %366 = stablehlo.dot_general %364, %365, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x128xf32>, tensor<128x32xf32>) -> tensor<4x8x32xf32>
    %367 = stablehlo.broadcast_in_dim %arg22, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %368 = stablehlo.broadcast_in_dim %367, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %369 = stablehlo.add %366, %368 : tensor<4x8x32xf32>
    %370 = stablehlo.add %298, %369 : tensor<4x8x32xf32>
    %371 = chlo.square %370 : tensor<4x8x32xf32> -> tensor<4x8x32xf32>
    %cst_87 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %372 = stablehlo.broadcast_in_dim %cst_87, dims = [] : (tensor<f32>) -> tensor<4x8x32xf32>
    %373 = stablehlo.multiply %372, %370 : tensor<4x8x32xf32>
    %cst_88 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %374 = stablehlo.reduce(%370 init: %cst_88) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_89 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %375 = stablehlo.broadcast_in_dim %cst_89, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %376 = stablehlo.divide %374, %375 : tensor<4x8xf32>
    %cst_90 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %377 = stablehlo.reduce(%371 init: %cst_90) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_91 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %378 = stablehlo.broadcast_in_dim %cst_91, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %379 = stablehlo.divide %377, %378 : tensor<4x8xf32>
    %380 = chlo.square %376 : tensor<4x8xf32> -> tensor<4x8xf32>
    %cst_92 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %381 = stablehlo.broadcast_in_dim %cst_92, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %382 = stablehlo.multiply %381, %376 : tensor<4x8xf32>
    %383 = stablehlo.subtract %379, %380 : tensor<4x8xf32>
    %cst_93 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %384 = stablehlo.broadcast_in_dim %cst_93, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %385 = stablehlo.maximum %384, %383 : tensor<4x8xf32>
    %386 = stablehlo.compare EQ, %383, %385, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_94 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %387 = stablehlo.broadcast_in_dim %cst_94, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_95 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %388 = stablehlo.broadcast_in_dim %cst_95, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %389 = stablehlo.select %386, %387, %388 : tensor<4x8xi1>, tensor<4x8xf32>
    %cst_96 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %390 = stablehlo.broadcast_in_dim %cst_96, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %391 = stablehlo.compare EQ, %390, %385, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_97 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %392 = stablehlo.broadcast_in_dim %cst_97, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_98 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %393 = stablehlo.broadcast_in_dim %cst_98, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %394 = stablehlo.select %391, %392, %393 : tensor<4x8xi1>, tensor<4x8xf32>
    %395 = stablehlo.divide %389, %394 : tensor<4x8xf32>
    %396 = stablehlo.broadcast_in_dim %376, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %397 = stablehlo.broadcast_in_dim %385, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %398 = stablehlo.broadcast_in_dim %396, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %399 = stablehlo.subtract %370, %398 : tensor<4x8x32xf32>
    %cst_99 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %400 = stablehlo.broadcast_in_dim %cst_99, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %401 = stablehlo.add %397, %400 : tensor<4x8x1xf32>
    %402 = stablehlo.rsqrt %401 : tensor<4x8x1xf32>
    %403 = stablehlo.divide %402, %401 : tensor<4x8x1xf32>
    %cst_100 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %404 = stablehlo.broadcast_in_dim %cst_100, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %405 = stablehlo.multiply %404, %403 : tensor<4x8x1xf32>
    %406 = stablehlo.reshape %arg25 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %407 = stablehlo.broadcast_in_dim %402, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %408 = stablehlo.broadcast_in_dim %406, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %409 = stablehlo.multiply %407, %408 : tensor<4x8x32xf32>
    %410 = stablehlo.multiply %399, %409 : tensor<4x8x32xf32>
    %411 = stablehlo.reshape %arg24 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %412 = stablehlo.broadcast_in_dim %411, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %413 = stablehlo.add %410, %412 : tensor<4x8x32xf32>
    %414 = stablehlo.transpose %arg27, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %415 = stablehlo.dot_general %413, %414, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %416 = stablehlo.slice %arg85 [0:4, 1:9] : (tensor<4x9xi32>) -> tensor<4x8xi32>
    %417 = stablehlo.broadcast_in_dim %416, dims = [0, 1] : (tensor<4x8xi32>) -> tensor<4x8x1xi32>
    %418:2 = call @take_along_axis(%415, %417) : (tensor<4x8x64xf32>, tensor<4x8x1xi32>) -> (tensor<4x8x1xf32>, tensor<4x8x1x1xi32>)
    %c_101 = stablehlo.constant dense<0> : tensor<i32>
    %419:2 = call @_take_1(%418#0, %c_101) : (tensor<4x8x1xf32>, tensor<i32>) -> (tensor<4x8xf32>, tensor<1xi32>)
    %cst_102 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %420 = stablehlo.reduce(%415 init: %cst_102) applies stablehlo.maximum across dimensions = [2] : (tensor<4x8x64xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_103 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %421 = stablehlo.broadcast_in_dim %cst_103, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %422 = stablehlo.maximum %421, %420 : tensor<4x8xf32>
    %423 = stablehlo.is_finite %422 : (tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_104 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %424 = stablehlo.broadcast_in_dim %cst_104, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %425 = stablehlo.select %423, %422, %424 : tensor<4x8xi1>, tensor<4x8xf32>
    %426 = stablehlo.broadcast_in_dim %425, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %427 = stablehlo.broadcast_in_dim %426, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x64xf32>
    %428 = stablehlo.subtract %415, %427 : tensor<4x8x64xf32>
    %429 = stablehlo.exponential %428 : tensor<4x8x64xf32>
    %cst_105 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %430 = stablehlo.reduce(%429 init: %cst_105) applies stablehlo.add across dimensions = [2] : (tensor<4x8x64xf32>, tensor<f32>) -> tensor<4x8xf32>
    %431 = stablehlo.abs %430 : tensor<4x8xf32>
    %cst_106 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %432 = stablehlo.broadcast_in_dim %cst_106, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %433 = stablehlo.compare GE, %430, %432, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %434 = stablehlo.log %431 : tensor<4x8xf32>
    %435 = stablehlo.add %434, %425 : tensor<4x8xf32>
    %436 = stablehlo.subtract %435, %419#0 : tensor<4x8xf32>
    %cst_107 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %437 = stablehlo.reduce(%436 init: %cst_107) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32>
    %cst_108 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %438 = stablehlo.divide %437, %cst_108 : tensor<f32>
    %cst_109 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_110 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %439 = stablehlo.divide %cst_109, %cst_110 : tensor<f32>
    %440 = stablehlo.broadcast_in_dim %439, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %441 = stablehlo.negate %440 : tensor<4x8xf32>
    %442 = stablehlo.divide %440, %431 : tensor<4x8xf32>
    %cst_111 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %443 = stablehlo.broadcast_in_dim %cst_111, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %444 = stablehlo.select %433, %443, %442 : tensor<4x8xi1>, tensor<4x8xf32>
    %445 = stablehlo.select %433, %442, %443 : tensor<4x8xi1>, tensor<4x8xf32>
    %446 = stablehlo.negate %444 : tensor<4x8xf32>
    %447 = stablehlo.add %445, %446 : tensor<4x8xf32>
    %448 = stablehlo.broadcast_in_dim %447, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x64xf32>
    %449 = stablehlo.multiply %448, %429 : tensor<4x8x64xf32>
    %450 = call @_take_3(%419#1, %441) : (tensor<1xi32>, tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %451 = call @take_along_axis_4(%418#1, %450) : (tensor<4x8x1x1xi32>, tensor<4x8x1xf32>) -> tensor<4x8x64xf32>
    %452 = stablehlo.add %449, %451 : tensor<4x8x64xf32>
    %453 = stablehlo.dot_general %452, %413, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x64xf32>, tensor<4x8x32xf32>) -> tensor<64x32xf32>
    %454 = stablehlo.transpose %453, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %455 = stablehlo.dot_general %452, %414, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x64xf32>, tensor<32x64xf32>) -> tensor<4x8x32xf32>
    %456 = stablehlo.transpose %454, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %cst_112 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %457 = stablehlo.reduce(%455 init: %cst_112) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %458 = stablehlo.reshape %457 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %459 = stablehlo.reshape %458 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %460 = stablehlo.multiply %399, %455 : tensor<4x8x32xf32>
    %461 = stablehlo.multiply %455, %409 : tensor<4x8x32xf32>
    %462 = stablehlo.broadcast_in_dim %402, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %463 = stablehlo.multiply %462, %460 : tensor<4x8x32xf32>
    %cst_113 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %464 = stablehlo.reduce(%463 init: %cst_113) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %465 = stablehlo.reshape %464 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %466 = stablehlo.broadcast_in_dim %406, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %467 = stablehlo.multiply %460, %466 : tensor<4x8x32xf32>
    %cst_114 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %468 = stablehlo.reduce(%467 init: %cst_114) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %469 = stablehlo.reshape %468 : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %470 = stablehlo.reshape %465 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %471 = stablehlo.multiply %469, %405 : tensor<4x8x1xf32>
    %472 = stablehlo.negate %461 : tensor<4x8x32xf32>
    %cst_115 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %473 = stablehlo.reduce(%472 init: %cst_115) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %474 = stablehlo.reshape %473 : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %cst_116 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %475 = stablehlo.reduce(%471 init: %cst_116) applies stablehlo.add across dimensions = [2] : (tensor<4x8x1xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_117 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %476 = stablehlo.reduce(%474 init: %cst_117) applies stablehlo.add across dimensions = [2] : (tensor<4x8x1xf32>, tensor<f32>) -> tensor<4x8xf32>
    %477 = stablehlo.multiply %475, %395 : tensor<4x8xf32>
    %478 = stablehlo.negate %477 : tensor<4x8xf32>
    %479 = stablehlo.multiply %478, %382 : tensor<4x8xf32>
    %480 = stablehlo.add %476, %479 : tensor<4x8xf32>
    %cst_118 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %481 = stablehlo.broadcast_in_dim %cst_118, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %482 = stablehlo.divide %477, %481 : tensor<4x8xf32>
    %483 = stablehlo.broadcast_in_dim %482, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
    %cst_119 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %484 = stablehlo.broadcast_in_dim %cst_119, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %485 = stablehlo.divide %480, %484 : tensor<4x8xf32>
    %486 = stablehlo.broadcast_in_dim %485, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
    %487 = stablehlo.add %461, %486 : tensor<4x8x32xf32>
    %488 = stablehlo.multiply %483, %373 : tensor<4x8x32xf32>
    %489 = stablehlo.add %487, %488 : tensor<4x8x32xf32>
    %cst_120 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %490 = stablehlo.reduce(%489 init: %cst_120) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %491 = stablehlo.reshape %490 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_121 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %492 = stablehlo.reduce(%491 init: %cst_121) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %493 = stablehlo.dot_general %489, %364, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<4x8x128xf32>) -> tensor<32x128xf32>
    %494 = stablehlo.transpose %493, dims = [1, 0] : (tensor<32x128xf32>) -> tensor<128x32xf32>
    %495 = stablehlo.dot_general %489, %365, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<128x32xf32>) -> tensor<4x8x128xf32>
    %496 = stablehlo.transpose %494, dims = [1, 0] : (tensor<128x32xf32>) -> tensor<32x128xf32>
    %497 = stablehlo.multiply %346, %495 : tensor<4x8x128xf32>
    %498 = stablehlo.multiply %495, %363 : tensor<4x8x128xf32>
    %cst_122 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %499 = stablehlo.broadcast_in_dim %cst_122, dims = [] : (tensor<f32>) -> tensor<4x8x128xf32>
    %500 = stablehlo.multiply %499, %497 : tensor<4x8x128xf32>
    %501 = stablehlo.multiply %500, %359 : tensor<4x8x128xf32>
    %502 = stablehlo.multiply %501, %357 : tensor<4x8x128xf32>
    %503 = stablehlo.add %501, %502 : tensor<4x8x128xf32>
    %cst_123 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %504 = stablehlo.broadcast_in_dim %cst_123, dims = [] : (tensor<f32>) -> tensor<4x8x128xf32>
    %505 = stablehlo.multiply %504, %503 : tensor<4x8x128xf32>
    %506 = stablehlo.add %498, %505 : tensor<4x8x128xf32>
    %cst_124 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %507 = stablehlo.broadcast_in_dim %cst_124, dims = [] : (tensor<f32>) -> tensor<4x8x128xf32>
    %508 = stablehlo.multiply %507, %505 : tensor<4x8x128xf32>
    %509 = stablehlo.multiply %508, %351 : tensor<4x8x128xf32>
    %510 = stablehlo.add %506, %509 : tensor<4x8x128xf32>
    %cst_125 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %511 = stablehlo.reduce(%510 init: %cst_125) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x128xf32>, tensor<f32>) -> tensor<128xf32>
    %512 = stablehlo.reshape %511 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %cst_126 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %513 = stablehlo.reduce(%512 init: %cst_126) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<128xf32>
    %514 = stablehlo.dot_general %510, %341, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x128xf32>, tensor<4x8x32xf32>) -> tensor<128x32xf32>
    %515 = stablehlo.transpose %514, dims = [1, 0] : (tensor<128x32xf32>) -> tensor<32x128xf32>
    %516 = stablehlo.dot_general %510, %342, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x128xf32>, tensor<32x128xf32>) -> tensor<4x8x32xf32>
    %517 = stablehlo.transpose %515, dims = [1, 0] : (tensor<32x128xf32>) -> tensor<128x32xf32>
    %cst_127 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %518 = stablehlo.reduce(%516 init: %cst_127) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %519 = stablehlo.reshape %518 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %520 = stablehlo.reshape %519 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %521 = stablehlo.multiply %327, %516 : tensor<4x8x32xf32>
    %522 = stablehlo.multiply %516, %337 : tensor<4x8x32xf32>
    %523 = stablehlo.broadcast_in_dim %330, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %524 = stablehlo.multiply %523, %521 : tensor<4x8x32xf32>
    %cst_128 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %525 = stablehlo.reduce(%524 init: %cst_128) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %526 = stablehlo.reshape %525 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %527 = stablehlo.broadcast_in_dim %334, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %528 = stablehlo.multiply %521, %527 : tensor<4x8x32xf32>
    %cst_129 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %529 = stablehlo.reduce(%528 init: %cst_129) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %530 = stablehlo.reshape %529 : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %531 = stablehlo.reshape %526 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %532 = stablehlo.multiply %530, %333 : tensor<4x8x1xf32>
    %533 = stablehlo.negate %522 : tensor<4x8x32xf32>
    %cst_130 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %534 = stablehlo.reduce(%533 init: %cst_130) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %535 = stablehlo.reshape %534 : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %536 = stablehlo.add %489, %522 : tensor<4x8x32xf32>
    %cst_131 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %537 = stablehlo.reduce(%532 init: %cst_131) applies stablehlo.add across dimensions = [2] : (tensor<4x8x1xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_132 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %538 = stablehlo.reduce(%535 init: %cst_132) applies stablehlo.add across dimensions = [2] : (tensor<4x8x1xf32>, tensor<f32>) -> tensor<4x8xf32>
    %539 = stablehlo.multiply %537, %323 : tensor<4x8xf32>
    %540 = stablehlo.negate %539 : tensor<4x8xf32>
    %541 = stablehlo.multiply %540, %310 : tensor<4x8xf32>
    %542 = stablehlo.add %538, %541 : tensor<4x8xf32>
    %cst_133 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %543 = stablehlo.broadcast_in_dim %cst_133, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %544 = stablehlo.divide %539, %543 : tensor<4x8xf32>
    %545 = stablehlo.broadcast_in_dim %544, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
    %cst_134 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %546 = stablehlo.broadcast_in_dim %cst_134, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %547 = stablehlo.divide %542, %546 : tensor<4x8xf32>
    %548 = stablehlo.broadcast_in_dim %547, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
    %549 = stablehlo.add %536, %548 : tensor<4x8x32xf32>
    %550 = stablehlo.multiply %545, %301 : tensor<4x8x32xf32>
    %551 = stablehlo.add %549, %550 : tensor<4x8x32xf32>
    %cst_135 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %552 = stablehlo.reduce(%551 init: %cst_135) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %553 = stablehlo.reshape %552 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_136 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %554 = stablehlo.reduce(%553 init: %cst_136) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %555 = stablehlo.dot_general %551, %292, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %556 = stablehlo.transpose %555, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %557 = stablehlo.dot_general %551, %293, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %558 = stablehlo.transpose %556, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %559 = stablehlo.reshape %557 : (tensor<4x8x32xf32>) -> tensor<4x8x4x8xf32>
    %560 = stablehlo.transpose %559, dims = [0, 2, 3, 1] : (tensor<4x8x4x8xf32>) -> tensor<4x4x8x8xf32>
    %561 = stablehlo.dot_general %560, %251, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x4x8x8xf32>, tensor<4x8x4x8xf32>) -> tensor<4x4x8x8xf32>
    %562 = stablehlo.dot_general %560, %286, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %563 = stablehlo.transpose %562, dims = [0, 3, 1, 2] : (tensor<4x4x8x8xf32>) -> tensor<4x8x4x8xf32>
    %564 = stablehlo.broadcast_in_dim %289, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %565 = stablehlo.multiply %561, %564 : tensor<4x4x8x8xf32>
    %566 = stablehlo.multiply %565, %282 : tensor<4x4x8x8xf32>
    %cst_137 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %567 = stablehlo.reduce(%566 init: %cst_137) applies stablehlo.add across dimensions = [3] : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %568 = stablehlo.reshape %567 : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %569 = stablehlo.negate %568 : tensor<4x4x8x1xf32>
    %570 = stablehlo.broadcast_in_dim %284, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %571 = stablehlo.divide %561, %570 : tensor<4x4x8x8xf32>
    %cst_138 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %572 = stablehlo.reduce(%569 init: %cst_138) applies stablehlo.add across dimensions = [3] : (tensor<4x4x8x1xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %573 = stablehlo.broadcast_in_dim %572, dims = [0, 1, 2] : (tensor<4x4x8xf32>) -> tensor<4x4x8x8xf32>
    %574 = stablehlo.add %571, %573 : tensor<4x4x8x8xf32>
    %575 = stablehlo.multiply %574, %282 : tensor<4x4x8x8xf32>
    %576 = stablehlo.dot_general %575, %272, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x4x8x8xf32>, tensor<4x8x4x8xf32>) -> tensor<4x4x8x8xf32>
    %577 = stablehlo.transpose %576, dims = [0, 2, 1, 3] : (tensor<4x4x8x8xf32>) -> tensor<4x8x4x8xf32>
    %578 = stablehlo.dot_general %575, %250, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x4x8x8xf32>, tensor<4x8x4x8xf32>) -> tensor<4x4x8x8xf32>
    %579 = stablehlo.transpose %578, dims = [0, 2, 1, 3] : (tensor<4x4x8x8xf32>) -> tensor<4x8x4x8xf32>
    %580 = stablehlo.broadcast_in_dim %270, dims = [] : (tensor<f32>) -> tensor<4x8x4x8xf32>
    %581 = stablehlo.divide %579, %580 : tensor<4x8x4x8xf32>
    %582 = stablehlo.reshape %563 : (tensor<4x8x4x8xf32>) -> tensor<4x8x32xf32>
    %583 = stablehlo.reshape %577 : (tensor<4x8x4x8xf32>) -> tensor<4x8x32xf32>
    %584 = stablehlo.reshape %581 : (tensor<4x8x4x8xf32>) -> tensor<4x8x32xf32>
    %585 = stablehlo.concatenate %584, %583, %582, dim = 2 : (tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x96xf32>
    %cst_139 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %586 = stablehlo.reduce(%585 init: %cst_139) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x96xf32>, tensor<f32>) -> tensor<96xf32>
    %587 = stablehlo.reshape %586 : (tensor<96xf32>) -> tensor<1x1x96xf32>
    %cst_140 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %588 = stablehlo.reduce(%587 init: %cst_140) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x96xf32>, tensor<f32>) -> tensor<96xf32>
    %589 = stablehlo.dot_general %585, %232, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x96xf32>, tensor<4x8x32xf32>) -> tensor<96x32xf32>
    %590 = stablehlo.transpose %589, dims = [1, 0] : (tensor<96x32xf32>) -> tensor<32x96xf32>
    %591 = stablehlo.dot_general %585, %241, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x96xf32>, tensor<32x96xf32>) -> tensor<4x8x32xf32>
    %592 = stablehlo.transpose %590, dims = [1, 0] : (tensor<32x96xf32>) -> tensor<96x32xf32>
    %cst_141 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %593 = stablehlo.reduce(%591 init: %cst_141) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %594 = stablehlo.reshape %593 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %595 = stablehlo.reshape %594 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %596 = stablehlo.multiply %218, %591 : tensor<4x8x32xf32>
    %597 = stablehlo.multiply %591, %228 : tensor<4x8x32xf32>
    %598 = stablehlo.broadcast_in_dim %221, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %599 = stablehlo.multiply %598, %596 : tensor<4x8x32xf32>
    %cst_142 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %600 = stablehlo.reduce(%599 init: %cst_142) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %601 = stablehlo.reshape %600 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %602 = stablehlo.broadcast_in_dim %225, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %603 = stablehlo.multiply %596, %602 : tensor<4x8x32xf32>
    %cst_143 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %604 = stablehlo.reduce(%603 init: %cst_143) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %605 = stablehlo.reshape %604 : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %606 = stablehlo.reshape %601 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %607 = stablehlo.multiply %605, %224 : tensor<4x8x1xf32>
    %608 = stablehlo.negate %597 : tensor<4x8x32xf32>
    %cst_144 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %609 = stablehlo.reduce(%608 init: %cst_144) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %610 = stablehlo.reshape %609 : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %611 = stablehlo.add %551, %597 : tensor<4x8x32xf32>
    %cst_145 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %612 = stablehlo.reduce(%607 init: %cst_145) applies stablehlo.add across dimensions = [2] : (tensor<4x8x1xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_146 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %613 = stablehlo.reduce(%610 init: %cst_146) applies stablehlo.add across dimensions = [2] : (tensor<4x8x1xf32>, tensor<f32>) -> tensor<4x8xf32>
    %614 = stablehlo.multiply %612, %214 : tensor<4x8xf32>
    %615 = stablehlo.negate %614 : tensor<4x8xf32>
    %616 = stablehlo.multiply %615, %201 : tensor<4x8xf32>
    %617 = stablehlo.add %613, %616 : tensor<4x8xf32>
    %cst_147 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %618 = stablehlo.broadcast_in_dim %cst_147, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %619 = stablehlo.divide %614, %618 : tensor<4x8xf32>
    %620 = stablehlo.broadcast_in_dim %619, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
    %cst_148 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %621 = stablehlo.broadcast_in_dim %cst_148, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %622 = stablehlo.divide %617, %621 : tensor<4x8xf32>
    %623 = stablehlo.broadcast_in_dim %622, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
    %624 = stablehlo.add %611, %623 : tensor<4x8x32xf32>
    %625 = stablehlo.multiply %620, %192 : tensor<4x8x32xf32>
    %626 = stablehlo.add %624, %625 : tensor<4x8x32xf32>
    %cst_149 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %627 = stablehlo.reduce(%626 init: %cst_149) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %628 = stablehlo.reshape %627 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_150 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %629 = stablehlo.reduce(%628 init: %cst_150) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %630 = stablehlo.dot_general %626, %183, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<4x8x128xf32>) -> tensor<32x128xf32>
    %631 = stablehlo.transpose %630, dims = [1, 0] : (tensor<32x128xf32>) -> tensor<128x32xf32>
    %632 = stablehlo.dot_general %626, %184, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<128x32xf32>) -> tensor<4x8x128xf32>
    %633 = stablehlo.transpose %631, dims = [1, 0] : (tensor<128x32xf32>) -> tensor<32x128xf32>
    %634 = stablehlo.multiply %165, %632 : tensor<4x8x128xf32>
    %635 = stablehlo.multiply %632, %182 : tensor<4x8x128xf32>
    %cst_151 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %636 = stablehlo.broadcast_in_dim %cst_151, dims = [] : (tensor<f32>) -> tensor<4x8x128xf32>
    %637 = stablehlo.multiply %636, %634 : tensor<4x8x128xf32>
    %638 = stablehlo.multiply %637, %178 : tensor<4x8x128xf32>
    %639 = stablehlo.multiply %638, %176 : tensor<4x8x128xf32>
    %640 = stablehlo.add %638, %639 : tensor<4x8x128xf32>
    %cst_152 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %641 = stablehlo.broadcast_in_dim %cst_152, dims = [] : (tensor<f32>) -> tensor<4x8x128xf32>
    %642 = stablehlo.multiply %641, %640 : tensor<4x8x128xf32>
    %643 = stablehlo.add %635, %642 : tensor<4x8x128xf32>
    %cst_153 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %644 = stablehlo.broadcast_in_dim %cst_153, dims = [] : (tensor<f32>) -> tensor<4x8x128xf32>
    %645 = stablehlo.multiply %644, %642 : tensor<4x8x128xf32>
    %646 = stablehlo.multiply %645, %170 : tensor<4x8x128xf32>
    %647 = stablehlo.add %643, %646 : tensor<4x8x128xf32>
    %cst_154 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %648 = stablehlo.reduce(%647 init: %cst_154) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x128xf32>, tensor<f32>) -> tensor<128xf32>
    %649 = stablehlo.reshape %648 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %cst_155 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %650 = stablehlo.reduce(%649 init: %cst_155) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<128xf32>
    %651 = stablehlo.dot_general %647, %160, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x128xf32>, tensor<4x8x32xf32>) -> tensor<128x32xf32>
    %652 = stablehlo.transpose %651, dims = [1, 0] : (tensor<128x32xf32>) -> tensor<32x128xf32>
    %653 = stablehlo.dot_general %647, %161, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x128xf32>, tensor<32x128xf32>) -> tensor<4x8x32xf32>
    %654 = stablehlo.transpose %652, dims = [1, 0] : (tensor<32x128xf32>) -> tensor<128x32xf32>
    %cst_156 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %655 = stablehlo.reduce(%653 init: %cst_156) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %656 = stablehlo.reshape %655 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %657 = stablehlo.reshape %656 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %658 = stablehlo.multiply %146, %653 : tensor<4x8x32xf32>
    %659 = stablehlo.multiply %653, %156 : tensor<4x8x32xf32>
    %660 = stablehlo.broadcast_in_dim %149, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %661 = stablehlo.multiply %660, %658 : tensor<4x8x32xf32>
    %cst_157 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %662 = stablehlo.reduce(%661 init: %cst_157) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %663 = stablehlo.reshape %662 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %664 = stablehlo.broadcast_in_dim %153, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %665 = stablehlo.multiply %658, %664 : tensor<4x8x32xf32>
    %cst_158 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %666 = stablehlo.reduce(%665 init: %cst_158) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %667 = stablehlo.reshape %666 : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %668 = stablehlo.reshape %663 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %669 = stablehlo.multiply %667, %152 : tensor<4x8x1xf32>
    %670 = stablehlo.negate %659 : tensor<4x8x32xf32>
    %cst_159 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %671 = stablehlo.reduce(%670 init: %cst_159) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %672 = stablehlo.reshape %671 : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %673 = stablehlo.add %626, %659 : tensor<4x8x32xf32>
    %cst_160 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %674 = stablehlo.reduce(%669 init: %cst_160) applies stablehlo.add across dimensions = [2] : (tensor<4x8x1xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_161 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %675 = stablehlo.reduce(%672 init: %cst_161) applies stablehlo.add across dimensions = [2] : (tensor<4x8x1xf32>, tensor<f32>) -> tensor<4x8xf32>
    %676 = stablehlo.multiply %674, %142 : tensor<4x8xf32>
    %677 = stablehlo.negate %676 : tensor<4x8xf32>
    %678 = stablehlo.multiply %677, %129 : tensor<4x8xf32>
    %679 = stablehlo.add %675, %678 : tensor<4x8xf32>
    %cst_162 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %680 = stablehlo.broadcast_in_dim %cst_162, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %681 = stablehlo.divide %676, %680 : tensor<4x8xf32>
    %682 = stablehlo.broadcast_in_dim %681, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
    %cst_163 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %683 = stablehlo.broadcast_in_dim %cst_163, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %684 = stablehlo.divide %679, %683 : tensor<4x8xf32>
    %685 = stablehlo.broadcast_in_dim %684, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
    %686 = stablehlo.add %673, %685 : tensor<4x8x32xf32>
    %687 = stablehlo.multiply %682, %120 : tensor<4x8x32xf32>
    %688 = stablehlo.add %686, %687 : tensor<4x8x32xf32>
    %cst_164 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %689 = stablehlo.reduce(%688 init: %cst_164) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %690 = stablehlo.reshape %689 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_165 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %691 = stablehlo.reduce(%690 init: %cst_165) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %692 = stablehlo.dot_general %688, %111, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %693 = stablehlo.transpose %692, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %694 = stablehlo.dot_general %688, %112, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %695 = stablehlo.transpose %693, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %696 = stablehlo.reshape %694 : (tensor<4x8x32xf32>) -> tensor<4x8x4x8xf32>
    %697 = stablehlo.transpose %696, dims = [0, 2, 3, 1] : (tensor<4x8x4x8xf32>) -> tensor<4x4x8x8xf32>
    %698 = stablehlo.dot_general %697, %70, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x4x8x8xf32>, tensor<4x8x4x8xf32>) -> tensor<4x4x8x8xf32>
    %699 = stablehlo.dot_general %697, %105, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %700 = stablehlo.transpose %699, dims = [0, 3, 1, 2] : (tensor<4x4x8x8xf32>) -> tensor<4x8x4x8xf32>
    %701 = stablehlo.broadcast_in_dim %108, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %702 = stablehlo.multiply %698, %701 : tensor<4x4x8x8xf32>
    %703 = stablehlo.multiply %702, %101 : tensor<4x4x8x8xf32>
    %cst_166 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %704 = stablehlo.reduce(%703 init: %cst_166) applies stablehlo.add across dimensions = [3] : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %705 = stablehlo.reshape %704 : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %706 = stablehlo.negate %705 : tensor<4x4x8x1xf32>
    %707 = stablehlo.broadcast_in_dim %103, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %708 = stablehlo.divide %698, %707 : tensor<4x4x8x8xf32>
    %cst_167 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %709 = stablehlo.reduce(%706 init: %cst_167) applies stablehlo.add across dimensions = [3] : (tensor<4x4x8x1xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %710 = stablehlo.broadcast_in_dim %709, dims = [0, 1, 2] : (tensor<4x4x8xf32>) -> tensor<4x4x8x8xf32>
    %711 = stablehlo.add %708, %710 : tensor<4x4x8x8xf32>
    %712 = stablehlo.multiply %711, %101 : tensor<4x4x8x8xf32>
    %713 = stablehlo.dot_general %712, %91, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x4x8x8xf32>, tensor<4x8x4x8xf32>) -> tensor<4x4x8x8xf32>
    %714 = stablehlo.transpose %713, dims = [0, 2, 1, 3] : (tensor<4x4x8x8xf32>) -> tensor<4x8x4x8xf32>
    %715 = stablehlo.dot_general %712, %69, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x4x8x8xf32>, tensor<4x8x4x8xf32>) -> tensor<4x4x8x8xf32>
    %716 = stablehlo.transpose %715, dims = [0, 2, 1, 3] : (tensor<4x4x8x8xf32>) -> tensor<4x8x4x8xf32>
    %717 = stablehlo.broadcast_in_dim %89, dims = [] : (tensor<f32>) -> tensor<4x8x4x8xf32>
    %718 = stablehlo.divide %716, %717 : tensor<4x8x4x8xf32>
    %719 = stablehlo.reshape %700 : (tensor<4x8x4x8xf32>) -> tensor<4x8x32xf32>
    %720 = stablehlo.reshape %714 : (tensor<4x8x4x8xf32>) -> tensor<4x8x32xf32>
    %721 = stablehlo.reshape %718 : (tensor<4x8x4x8xf32>) -> tensor<4x8x32xf32>
    %722 = stablehlo.concatenate %721, %720, %719, dim = 2 : (tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x96xf32>
    %cst_168 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %723 = stablehlo.reduce(%722 init: %cst_168) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x96xf32>, tensor<f32>) -> tensor<96xf32>
    %724 = stablehlo.reshape %723 : (tensor<96xf32>) -> tensor<1x1x96xf32>
    %cst_169 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %725 = stablehlo.reduce(%724 init: %cst_169) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x96xf32>, tensor<f32>) -> tensor<96xf32>
    %726 = stablehlo.dot_general %722, %51, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x96xf32>, tensor<4x8x32xf32>) -> tensor<96x32xf32>
    %727 = stablehlo.transpose %726, dims = [1, 0] : (tensor<96x32xf32>) -> tensor<32x96xf32>
    %728 = stablehlo.dot_general %722, %60, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x96xf32>, tensor<32x96xf32>) -> tensor<4x8x32xf32>
    %729 = stablehlo.transpose %727, dims = [1, 0] : (tensor<32x96xf32>) -> tensor<96x32xf32>
    %cst_170 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %730 = stablehlo.reduce(%728 init: %cst_170) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %731 = stablehlo.reshape %730 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %732 = stablehlo.reshape %731 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %733 = stablehlo.multiply %37, %728 : tensor<4x8x32xf32>
    %734 = stablehlo.multiply %728, %47 : tensor<4x8x32xf32>
    %735 = stablehlo.broadcast_in_dim %40, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %736 = stablehlo.multiply %735, %733 : tensor<4x8x32xf32>
    %cst_171 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %737 = stablehlo.reduce(%736 init: %cst_171) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %738 = stablehlo.reshape %737 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %739 = stablehlo.broadcast_in_dim %44, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %740 = stablehlo.multiply %733, %739 : tensor<4x8x32xf32>
    %cst_172 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %741 = stablehlo.reduce(%740 init: %cst_172) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %742 = stablehlo.reshape %741 : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %743 = stablehlo.reshape %738 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %744 = stablehlo.multiply %742, %43 : tensor<4x8x1xf32>
    %745 = stablehlo.negate %734 : tensor<4x8x32xf32>
    %cst_173 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %746 = stablehlo.reduce(%745 init: %cst_173) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %747 = stablehlo.reshape %746 : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %748 = stablehlo.add %688, %734 : tensor<4x8x32xf32>
    %cst_174 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %749 = stablehlo.reduce(%744 init: %cst_174) applies stablehlo.add across dimensions = [2] : (tensor<4x8x1xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_175 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %750 = stablehlo.reduce(%747 init: %cst_175) applies stablehlo.add across dimensions = [2] : (tensor<4x8x1xf32>, tensor<f32>) -> tensor<4x8xf32>
    %751 = stablehlo.multiply %749, %33 : tensor<4x8xf32>
    %752 = stablehlo.negate %751 : tensor<4x8xf32>
    %753 = stablehlo.multiply %752, %20 : tensor<4x8xf32>
    %754 = stablehlo.add %750, %753 : tensor<4x8xf32>
    %cst_176 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %755 = stablehlo.broadcast_in_dim %cst_176, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %756 = stablehlo.divide %751, %755 : tensor<4x8xf32>
    %757 = stablehlo.broadcast_in_dim %756, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
    %cst_177 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %758 = stablehlo.broadcast_in_dim %cst_177, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %759 = stablehlo.divide %754, %758 : tensor<4x8xf32>
    %760 = stablehlo.broadcast_in_dim %759, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
    %761 = stablehlo.add %748, %760 : tensor<4x8x32xf32>
    %762 = stablehlo.multiply %757, %11 : tensor<4x8x32xf32>
    %763 = stablehlo.add %761, %762 : tensor<4x8x32xf32>
    %764 = call @_take_5(%7#1, %763) : (tensor<4x8x1xi32>, tensor<4x8x32xf32>) -> tensor<16x32xf32>
    %765 = call @_take_6(%6#1, %763) : (tensor<4x8x1xi32>, tensor<4x8x32xf32>) -> tensor<64x32xf32>
    %766 = stablehlo.add %456, %765 : tensor<64x32xf32>
    %cst_178 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %767 = stablehlo.broadcast_in_dim %cst_178, dims = [] : (tensor<f32>) -> tensor<96xf32>
    %768 = stablehlo.multiply %767, %725 : tensor<96xf32>
    %cst_179 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %769 = stablehlo.broadcast_in_dim %cst_179, dims = [] : (tensor<f32>) -> tensor<96xf32>
    %770 = stablehlo.multiply %769, %arg29 : tensor<96xf32>
    %771 = stablehlo.add %768, %770 : tensor<96xf32>
    %cst_180 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %772 = stablehlo.broadcast_in_dim %cst_180, dims = [] : (tensor<f32>) -> tensor<96x32xf32>
    %773 = stablehlo.multiply %772, %729 : tensor<96x32xf32>
    %cst_181 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %774 = stablehlo.broadcast_in_dim %cst_181, dims = [] : (tensor<f32>) -> tensor<96x32xf32>
    %775 = stablehlo.multiply %774, %arg30 : tensor<96x32xf32>
    %776 = stablehlo.add %773, %775 : tensor<96x32xf32>
    %cst_182 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %777 = stablehlo.broadcast_in_dim %cst_182, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %778 = stablehlo.multiply %777, %691 : tensor<32xf32>
    %cst_183 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %779 = stablehlo.broadcast_in_dim %cst_183, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %780 = stablehlo.multiply %779, %arg31 : tensor<32xf32>
    %781 = stablehlo.add %778, %780 : tensor<32xf32>
    %cst_184 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %782 = stablehlo.broadcast_in_dim %cst_184, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %783 = stablehlo.multiply %782, %695 : tensor<32x32xf32>
    %cst_185 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %784 = stablehlo.broadcast_in_dim %cst_185, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %785 = stablehlo.multiply %784, %arg32 : tensor<32x32xf32>
    %786 = stablehlo.add %783, %785 : tensor<32x32xf32>
    %cst_186 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %787 = stablehlo.broadcast_in_dim %cst_186, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %788 = stablehlo.multiply %787, %732 : tensor<32xf32>
    %cst_187 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %789 = stablehlo.broadcast_in_dim %cst_187, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %790 = stablehlo.multiply %789, %arg33 : tensor<32xf32>
    %791 = stablehlo.add %788, %790 : tensor<32xf32>
    %cst_188 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %792 = stablehlo.broadcast_in_dim %cst_188, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %793 = stablehlo.multiply %792, %743 : tensor<32xf32>
    %cst_189 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %794 = stablehlo.broadcast_in_dim %cst_189, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %795 = stablehlo.multiply %794, %arg34 : tensor<32xf32>
    %796 = stablehlo.add %793, %795 : tensor<32xf32>
    %cst_190 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %797 = stablehlo.broadcast_in_dim %cst_190, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %798 = stablehlo.multiply %797, %657 : tensor<32xf32>
    %cst_191 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %799 = stablehlo.broadcast_in_dim %cst_191, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %800 = stablehlo.multiply %799, %arg35 : tensor<32xf32>
    %801 = stablehlo.add %798, %800 : tensor<32xf32>
    %cst_192 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %802 = stablehlo.broadcast_in_dim %cst_192, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %803 = stablehlo.multiply %802, %668 : tensor<32xf32>
    %cst_193 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %804 = stablehlo.broadcast_in_dim %cst_193, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %805 = stablehlo.multiply %804, %arg36 : tensor<32xf32>
    %806 = stablehlo.add %803, %805 : tensor<32xf32>
    %cst_194 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %807 = stablehlo.broadcast_in_dim %cst_194, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %808 = stablehlo.multiply %807, %650 : tensor<128xf32>
    %cst_195 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %809 = stablehlo.broadcast_in_dim %cst_195, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %810 = stablehlo.multiply %809, %arg37 : tensor<128xf32>
    %811 = stablehlo.add %808, %810 : tensor<128xf32>
    %cst_196 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %812 = stablehlo.broadcast_in_dim %cst_196, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %813 = stablehlo.multiply %812, %654 : tensor<128x32xf32>
    %cst_197 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %814 = stablehlo.broadcast_in_dim %cst_197, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %815 = stablehlo.multiply %814, %arg38 : tensor<128x32xf32>
    %816 = stablehlo.add %813, %815 : tensor<128x32xf32>
    %cst_198 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %817 = stablehlo.broadcast_in_dim %cst_198, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %818 = stablehlo.multiply %817, %629 : tensor<32xf32>
    %cst_199 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %819 = stablehlo.broadcast_in_dim %cst_199, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %820 = stablehlo.multiply %819, %arg39 : tensor<32xf32>
    %821 = stablehlo.add %818, %820 : tensor<32xf32>
    %cst_200 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %822 = stablehlo.broadcast_in_dim %cst_200, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %823 = stablehlo.multiply %822, %633 : tensor<32x128xf32>
    %cst_201 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %824 = stablehlo.broadcast_in_dim %cst_201, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %825 = stablehlo.multiply %824, %arg40 : tensor<32x128xf32>
    %826 = stablehlo.add %823, %825 : tensor<32x128xf32>
    %cst_202 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %827 = stablehlo.broadcast_in_dim %cst_202, dims = [] : (tensor<f32>) -> tensor<96xf32>
    %828 = stablehlo.multiply %827, %588 : tensor<96xf32>
    %cst_203 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %829 = stablehlo.broadcast_in_dim %cst_203, dims = [] : (tensor<f32>) -> tensor<96xf32>
    %830 = stablehlo.multiply %829, %arg41 : tensor<96xf32>
    %831 = stablehlo.add %828, %830 : tensor<96xf32>
    %cst_204 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %832 = stablehlo.broadcast_in_dim %cst_204, dims = [] : (tensor<f32>) -> tensor<96x32xf32>
    %833 = stablehlo.multiply %832, %592 : tensor<96x32xf32>
    %cst_205 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %834 = stablehlo.broadcast_in_dim %cst_205, dims = [] : (tensor<f32>) -> tensor<96x32xf32>
    %835 = stablehlo.multiply %834, %arg42 : tensor<96x32xf32>
    %836 = stablehlo.add %833, %835 : tensor<96x32xf32>
    %cst_206 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %837 = stablehlo.broadcast_in_dim %cst_206, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %838 = stablehlo.multiply %837, %554 : tensor<32xf32>
    %cst_207 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %839 = stablehlo.broadcast_in_dim %cst_207, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %840 = stablehlo.multiply %839, %arg43 : tensor<32xf32>
    %841 = stablehlo.add %838, %840 : tensor<32xf32>
    %cst_208 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %842 = stablehlo.broadcast_in_dim %cst_208, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %843 = stablehlo.multiply %842, %558 : tensor<32x32xf32>
    %cst_209 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %844 = stablehlo.broadcast_in_dim %cst_209, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %845 = stablehlo.multiply %844, %arg44 : tensor<32x32xf32>
    %846 = stablehlo.add %843, %845 : tensor<32x32xf32>
    %cst_210 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %847 = stablehlo.broadcast_in_dim %cst_210, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %848 = stablehlo.multiply %847, %595 : tensor<32xf32>
    %cst_211 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %849 = stablehlo.broadcast_in_dim %cst_211, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %850 = stablehlo.multiply %849, %arg45 : tensor<32xf32>
    %851 = stablehlo.add %848, %850 : tensor<32xf32>
    %cst_212 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %852 = stablehlo.broadcast_in_dim %cst_212, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %853 = stablehlo.multiply %852, %606 : tensor<32xf32>
    %cst_213 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %854 = stablehlo.broadcast_in_dim %cst_213, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %855 = stablehlo.multiply %854, %arg46 : tensor<32xf32>
    %856 = stablehlo.add %853, %855 : tensor<32xf32>
    %cst_214 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %857 = stablehlo.broadcast_in_dim %cst_214, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %858 = stablehlo.multiply %857, %520 : tensor<32xf32>
    %cst_215 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %859 = stablehlo.broadcast_in_dim %cst_215, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %860 = stablehlo.multiply %859, %arg47 : tensor<32xf32>
    %861 = stablehlo.add %858, %860 : tensor<32xf32>
    %cst_216 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %862 = stablehlo.broadcast_in_dim %cst_216, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %863 = stablehlo.multiply %862, %531 : tensor<32xf32>
    %cst_217 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %864 = stablehlo.broadcast_in_dim %cst_217, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %865 = stablehlo.multiply %864, %arg48 : tensor<32xf32>
    %866 = stablehlo.add %863, %865 : tensor<32xf32>
    %cst_218 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %867 = stablehlo.broadcast_in_dim %cst_218, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %868 = stablehlo.multiply %867, %513 : tensor<128xf32>
    %cst_219 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %869 = stablehlo.broadcast_in_dim %cst_219, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %870 = stablehlo.multiply %869, %arg49 : tensor<128xf32>
    %871 = stablehlo.add %868, %870 : tensor<128xf32>
    %cst_220 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %872 = stablehlo.broadcast_in_dim %cst_220, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %873 = stablehlo.multiply %872, %517 : tensor<128x32xf32>
    %cst_221 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %874 = stablehlo.broadcast_in_dim %cst_221, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %875 = stablehlo.multiply %874, %arg50 : tensor<128x32xf32>
    %876 = stablehlo.add %873, %875 : tensor<128x32xf32>
    %cst_222 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %877 = stablehlo.broadcast_in_dim %cst_222, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %878 = stablehlo.multiply %877, %492 : tensor<32xf32>
    %cst_223 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %879 = stablehlo.broadcast_in_dim %cst_223, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %880 = stablehlo.multiply %879, %arg51 : tensor<32xf32>
    %881 = stablehlo.add %878, %880 : tensor<32xf32>
    %cst_224 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %882 = stablehlo.broadcast_in_dim %cst_224, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %883 = stablehlo.multiply %882, %496 : tensor<32x128xf32>
    %cst_225 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %884 = stablehlo.broadcast_in_dim %cst_225, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %885 = stablehlo.multiply %884, %arg52 : tensor<32x128xf32>
    %886 = stablehlo.add %883, %885 : tensor<32x128xf32>
    %cst_226 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %887 = stablehlo.broadcast_in_dim %cst_226, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %888 = stablehlo.multiply %887, %459 : tensor<32xf32>
    %cst_227 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %889 = stablehlo.broadcast_in_dim %cst_227, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %890 = stablehlo.multiply %889, %arg53 : tensor<32xf32>
    %891 = stablehlo.add %888, %890 : tensor<32xf32>
    %cst_228 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %892 = stablehlo.broadcast_in_dim %cst_228, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %893 = stablehlo.multiply %892, %470 : tensor<32xf32>
    %cst_229 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %894 = stablehlo.broadcast_in_dim %cst_229, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %895 = stablehlo.multiply %894, %arg54 : tensor<32xf32>
    %896 = stablehlo.add %893, %895 : tensor<32xf32>
    %cst_230 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %897 = stablehlo.broadcast_in_dim %cst_230, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %898 = stablehlo.multiply %897, %764 : tensor<16x32xf32>
    %cst_231 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %899 = stablehlo.broadcast_in_dim %cst_231, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %900 = stablehlo.multiply %899, %arg55 : tensor<16x32xf32>
    %901 = stablehlo.add %898, %900 : tensor<16x32xf32>
    %cst_232 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %902 = stablehlo.broadcast_in_dim %cst_232, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %903 = stablehlo.multiply %902, %766 : tensor<64x32xf32>
    %cst_233 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %904 = stablehlo.broadcast_in_dim %cst_233, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %905 = stablehlo.multiply %904, %arg56 : tensor<64x32xf32>
    %906 = stablehlo.add %903, %905 : tensor<64x32xf32>
    %907 = stablehlo.multiply %725, %725 : tensor<96xf32>
    %cst_234 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %908 = stablehlo.broadcast_in_dim %cst_234, dims = [] : (tensor<f32>) -> tensor<96xf32>
    %909 = stablehlo.multiply %908, %907 : tensor<96xf32>
    %cst_235 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %910 = stablehlo.broadcast_in_dim %cst_235, dims = [] : (tensor<f32>) -> tensor<96xf32>
    %911 = stablehlo.multiply %910, %arg57 : tensor<96xf32>
    %912 = stablehlo.add %909, %911 : tensor<96xf32>
    %913 = stablehlo.multiply %729, %729 : tensor<96x32xf32>
    %cst_236 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %914 = stablehlo.broadcast_in_dim %cst_236, dims = [] : (tensor<f32>) -> tensor<96x32xf32>
    %915 = stablehlo.multiply %914, %913 : tensor<96x32xf32>
    %cst_237 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %916 = stablehlo.broadcast_in_dim %cst_237, dims = [] : (tensor<f32>) -> tensor<96x32xf32>
    %917 = stablehlo.multiply %916, %arg58 : tensor<96x32xf32>
    %918 = stablehlo.add %915, %917 : tensor<96x32xf32>
    %919 = stablehlo.multiply %691, %691 : tensor<32xf32>
    %cst_238 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %920 = stablehlo.broadcast_in_dim %cst_238, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %921 = stablehlo.multiply %920, %919 : tensor<32xf32>
    %cst_239 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %922 = stablehlo.broadcast_in_dim %cst_239, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %923 = stablehlo.multiply %922, %arg59 : tensor<32xf32>
    %924 = stablehlo.add %921, %923 : tensor<32xf32>
    %925 = stablehlo.multiply %695, %695 : tensor<32x32xf32>
    %cst_240 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %926 = stablehlo.broadcast_in_dim %cst_240, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %927 = stablehlo.multiply %926, %925 : tensor<32x32xf32>
    %cst_241 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %928 = stablehlo.broadcast_in_dim %cst_241, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %929 = stablehlo.multiply %928, %arg60 : tensor<32x32xf32>
    %930 = stablehlo.add %927, %929 : tensor<32x32xf32>
    %931 = stablehlo.multiply %732, %732 : tensor<32xf32>
    %cst_242 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %932 = stablehlo.broadcast_in_dim %cst_242, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %933 = stablehlo.multiply %932, %931 : tensor<32xf32>
    %cst_243 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %934 = stablehlo.broadcast_in_dim %cst_243, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %935 = stablehlo.multiply %934, %arg61 : tensor<32xf32>
    %936 = stablehlo.add %933, %935 : tensor<32xf32>
    %937 = stablehlo.multiply %743, %743 : tensor<32xf32>
    %cst_244 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %938 = stablehlo.broadcast_in_dim %cst_244, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %939 = stablehlo.multiply %938, %937 : tensor<32xf32>
    %cst_245 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %940 = stablehlo.broadcast_in_dim %cst_245, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %941 = stablehlo.multiply %940, %arg62 : tensor<32xf32>
    %942 = stablehlo.add %939, %941 : tensor<32xf32>
    %943 = stablehlo.multiply %657, %657 : tensor<32xf32>
    %cst_246 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %944 = stablehlo.broadcast_in_dim %cst_246, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %945 = stablehlo.multiply %944, %943 : tensor<32xf32>
    %cst_247 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %946 = stablehlo.broadcast_in_dim %cst_247, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %947 = stablehlo.multiply %946, %arg63 : tensor<32xf32>
    %948 = stablehlo.add %945, %947 : tensor<32xf32>
    %949 = stablehlo.multiply %668, %668 : tensor<32xf32>
    %cst_248 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %950 = stablehlo.broadcast_in_dim %cst_248, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %951 = stablehlo.multiply %950, %949 : tensor<32xf32>
    %cst_249 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %952 = stablehlo.broadcast_in_dim %cst_249, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %953 = stablehlo.multiply %952, %arg64 : tensor<32xf32>
    %954 = stablehlo.add %951, %953 : tensor<32xf32>
    %955 = stablehlo.multiply %650, %650 : tensor<128xf32>
    %cst_250 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %956 = stablehlo.broadcast_in_dim %cst_250, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %957 = stablehlo.multiply %956, %955 : tensor<128xf32>
    %cst_251 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %958 = stablehlo.broadcast_in_dim %cst_251, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %959 = stablehlo.multiply %958, %arg65 : tensor<128xf32>
    %960 = stablehlo.add %957, %959 : tensor<128xf32>
    %961 = stablehlo.multiply %654, %654 : tensor<128x32xf32>
    %cst_252 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %962 = stablehlo.broadcast_in_dim %cst_252, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %963 = stablehlo.multiply %962, %961 : tensor<128x32xf32>
    %cst_253 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %964 = stablehlo.broadcast_in_dim %cst_253, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %965 = stablehlo.multiply %964, %arg66 : tensor<128x32xf32>
    %966 = stablehlo.add %963, %965 : tensor<128x32xf32>
    %967 = stablehlo.multiply %629, %629 : tensor<32xf32>
    %cst_254 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %968 = stablehlo.broadcast_in_dim %cst_254, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %969 = stablehlo.multiply %968, %967 : tensor<32xf32>
    %cst_255 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %970 = stablehlo.broadcast_in_dim %cst_255, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %971 = stablehlo.multiply %970, %arg67 : tensor<32xf32>
    %972 = stablehlo.add %969, %971 : tensor<32xf32>
    %973 = stablehlo.multiply %633, %633 : tensor<32x128xf32>
    %cst_256 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %974 = stablehlo.broadcast_in_dim %cst_256, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %975 = stablehlo.multiply %974, %973 : tensor<32x128xf32>
    %cst_257 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %976 = stablehlo.broadcast_in_dim %cst_257, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %977 = stablehlo.multiply %976, %arg68 : tensor<32x128xf32>
    %978 = stablehlo.add %975, %977 : tensor<32x128xf32>
    %979 = stablehlo.multiply %588, %588 : tensor<96xf32>
    %cst_258 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %980 = stablehlo.broadcast_in_dim %cst_258, dims = [] : (tensor<f32>) -> tensor<96xf32>
    %981 = stablehlo.multiply %980, %979 : tensor<96xf32>
    %cst_259 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %982 = stablehlo.broadcast_in_dim %cst_259, dims = [] : (tensor<f32>) -> tensor<96xf32>
    %983 = stablehlo.multiply %982, %arg69 : tensor<96xf32>
    %984 = stablehlo.add %981, %983 : tensor<96xf32>
    %985 = stablehlo.multiply %592, %592 : tensor<96x32xf32>
    %cst_260 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %986 = stablehlo.broadcast_in_dim %cst_260, dims = [] : (tensor<f32>) -> tensor<96x32xf32>
    %987 = stablehlo.multiply %986, %985 : tensor<96x32xf32>
    %cst_261 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %988 = stablehlo.broadcast_in_dim %cst_261, dims = [] : (tensor<f32>) -> tensor<96x32xf32>
    %989 = stablehlo.multiply %988, %arg70 : tensor<96x32xf32>
    %990 = stablehlo.add %987, %989 : tensor<96x32xf32>
    %991 = stablehlo.multiply %554, %554 : tensor<32xf32>
    %cst_262 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %992 = stablehlo.broadcast_in_dim %cst_262, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %993 = stablehlo.multiply %992, %991 : tensor<32xf32>
    %cst_263 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %994 = stablehlo.broadcast_in_dim %cst_263, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %995 = stablehlo.multiply %994, %arg71 : tensor<32xf32>
    %996 = stablehlo.add %993, %995 : tensor<32xf32>
    %997 = stablehlo.multiply %558, %558 : tensor<32x32xf32>
    %cst_264 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %998 = stablehlo.broadcast_in_dim %cst_264, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %999 = stablehlo.multiply %998, %997 : tensor<32x32xf32>
    %cst_265 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1000 = stablehlo.broadcast_in_dim %cst_265, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1001 = stablehlo.multiply %1000, %arg72 : tensor<32x32xf32>
    %1002 = stablehlo.add %999, %1001 : tensor<32x32xf32>
    %1003 = stablehlo.multiply %595, %595 : tensor<32xf32>
    %cst_266 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1004 = stablehlo.broadcast_in_dim %cst_266, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1005 = stablehlo.multiply %1004, %1003 : tensor<32xf32>
    %cst_267 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1006 = stablehlo.broadcast_in_dim %cst_267, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1007 = stablehlo.multiply %1006, %arg73 : tensor<32xf32>
    %1008 = stablehlo.add %1005, %1007 : tensor<32xf32>
    %1009 = stablehlo.multiply %606, %606 : tensor<32xf32>
    %cst_268 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1010 = stablehlo.broadcast_in_dim %cst_268, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1011 = stablehlo.multiply %1010, %1009 : tensor<32xf32>
    %cst_269 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1012 = stablehlo.broadcast_in_dim %cst_269, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1013 = stablehlo.multiply %1012, %arg74 : tensor<32xf32>
    %1014 = stablehlo.add %1011, %1013 : tensor<32xf32>
    %1015 = stablehlo.multiply %520, %520 : tensor<32xf32>
    %cst_270 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1016 = stablehlo.broadcast_in_dim %cst_270, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1017 = stablehlo.multiply %1016, %1015 : tensor<32xf32>
    %cst_271 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1018 = stablehlo.broadcast_in_dim %cst_271, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1019 = stablehlo.multiply %1018, %arg75 : tensor<32xf32>
    %1020 = stablehlo.add %1017, %1019 : tensor<32xf32>
    %1021 = stablehlo.multiply %531, %531 : tensor<32xf32>
    %cst_272 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1022 = stablehlo.broadcast_in_dim %cst_272, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1023 = stablehlo.multiply %1022, %1021 : tensor<32xf32>
    %cst_273 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1024 = stablehlo.broadcast_in_dim %cst_273, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1025 = stablehlo.multiply %1024, %arg76 : tensor<32xf32>
    %1026 = stablehlo.add %1023, %1025 : tensor<32xf32>
    %1027 = stablehlo.multiply %513, %513 : tensor<128xf32>
    %cst_274 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1028 = stablehlo.broadcast_in_dim %cst_274, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %1029 = stablehlo.multiply %1028, %1027 : tensor<128xf32>
    %cst_275 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1030 = stablehlo.broadcast_in_dim %cst_275, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %1031 = stablehlo.multiply %1030, %arg77 : tensor<128xf32>
    %1032 = stablehlo.add %1029, %1031 : tensor<128xf32>
    %1033 = stablehlo.multiply %517, %517 : tensor<128x32xf32>
    %cst_276 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1034 = stablehlo.broadcast_in_dim %cst_276, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %1035 = stablehlo.multiply %1034, %1033 : tensor<128x32xf32>
    %cst_277 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1036 = stablehlo.broadcast_in_dim %cst_277, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %1037 = stablehlo.multiply %1036, %arg78 : tensor<128x32xf32>
    %1038 = stablehlo.add %1035, %1037 : tensor<128x32xf32>
    %1039 = stablehlo.multiply %492, %492 : tensor<32xf32>
    %cst_278 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1040 = stablehlo.broadcast_in_dim %cst_278, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1041 = stablehlo.multiply %1040, %1039 : tensor<32xf32>
    %cst_279 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1042 = stablehlo.broadcast_in_dim %cst_279, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1043 = stablehlo.multiply %1042, %arg79 : tensor<32xf32>
    %1044 = stablehlo.add %1041, %1043 : tensor<32xf32>
    %1045 = stablehlo.multiply %496, %496 : tensor<32x128xf32>
    %cst_280 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1046 = stablehlo.broadcast_in_dim %cst_280, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %1047 = stablehlo.multiply %1046, %1045 : tensor<32x128xf32>
    %cst_281 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1048 = stablehlo.broadcast_in_dim %cst_281, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %1049 = stablehlo.multiply %1048, %arg80 : tensor<32x128xf32>
    %1050 = stablehlo.add %1047, %1049 : tensor<32x128xf32>
    %1051 = stablehlo.multiply %459, %459 : tensor<32xf32>
    %cst_282 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1052 = stablehlo.broadcast_in_dim %cst_282, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1053 = stablehlo.multiply %1052, %1051 : tensor<32xf32>
    %cst_283 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1054 = stablehlo.broadcast_in_dim %cst_283, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1055 = stablehlo.multiply %1054, %arg81 : tensor<32xf32>
    %1056 = stablehlo.add %1053, %1055 : tensor<32xf32>
    %1057 = stablehlo.multiply %470, %470 : tensor<32xf32>
    %cst_284 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1058 = stablehlo.broadcast_in_dim %cst_284, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1059 = stablehlo.multiply %1058, %1057 : tensor<32xf32>
    %cst_285 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1060 = stablehlo.broadcast_in_dim %cst_285, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1061 = stablehlo.multiply %1060, %arg82 : tensor<32xf32>
    %1062 = stablehlo.add %1059, %1061 : tensor<32xf32>
    %1063 = stablehlo.multiply %764, %764 : tensor<16x32xf32>
    %cst_286 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1064 = stablehlo.broadcast_in_dim %cst_286, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %1065 = stablehlo.multiply %1064, %1063 : tensor<16x32xf32>
    %cst_287 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1066 = stablehlo.broadcast_in_dim %cst_287, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %1067 = stablehlo.multiply %1066, %arg83 : tensor<16x32xf32>
    %1068 = stablehlo.add %1065, %1067 : tensor<16x32xf32>
    %1069 = stablehlo.multiply %766, %766 : tensor<64x32xf32>
    %cst_288 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %1070 = stablehlo.broadcast_in_dim %cst_288, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1071 = stablehlo.multiply %1070, %1069 : tensor<64x32xf32>
    %cst_289 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1072 = stablehlo.broadcast_in_dim %cst_289, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1073 = stablehlo.multiply %1072, %arg84 : tensor<64x32xf32>
    %1074 = stablehlo.add %1071, %1073 : tensor<64x32xf32>
    %c_290 = stablehlo.constant dense<2147483647> : tensor<i32>
    %1075 = stablehlo.compare LT, %arg28, %c_290, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_291 = stablehlo.constant dense<1> : tensor<i32>
    %1076 = stablehlo.add %arg28, %c_291 : tensor<i32>
    %c_292 = stablehlo.constant dense<2147483647> : tensor<i32>
    %1077 = call @_where_7(%1075, %1076, %c_292) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %cst_293 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %1078 = stablehlo.convert %1077 : (tensor<i32>) -> tensor<f32>
    %1079 = stablehlo.power %cst_293, %1078 : tensor<f32>
    %cst_294 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1080 = stablehlo.subtract %cst_294, %1079 : tensor<f32>
    %1081 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<96xf32>
    %1082 = stablehlo.divide %771, %1081 : tensor<96xf32>
    %1083 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<96x32xf32>
    %1084 = stablehlo.divide %776, %1083 : tensor<96x32xf32>
    %1085 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1086 = stablehlo.divide %781, %1085 : tensor<32xf32>
    %1087 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1088 = stablehlo.divide %786, %1087 : tensor<32x32xf32>
    %1089 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1090 = stablehlo.divide %791, %1089 : tensor<32xf32>
    %1091 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1092 = stablehlo.divide %796, %1091 : tensor<32xf32>
    %1093 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1094 = stablehlo.divide %801, %1093 : tensor<32xf32>
    %1095 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1096 = stablehlo.divide %806, %1095 : tensor<32xf32>
    %1097 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %1098 = stablehlo.divide %811, %1097 : tensor<128xf32>
    %1099 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %1100 = stablehlo.divide %816, %1099 : tensor<128x32xf32>
    %1101 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1102 = stablehlo.divide %821, %1101 : tensor<32xf32>
    %1103 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %1104 = stablehlo.divide %826, %1103 : tensor<32x128xf32>
    %1105 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<96xf32>
    %1106 = stablehlo.divide %831, %1105 : tensor<96xf32>
    %1107 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<96x32xf32>
    %1108 = stablehlo.divide %836, %1107 : tensor<96x32xf32>
    %1109 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1110 = stablehlo.divide %841, %1109 : tensor<32xf32>
    %1111 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1112 = stablehlo.divide %846, %1111 : tensor<32x32xf32>
    %1113 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1114 = stablehlo.divide %851, %1113 : tensor<32xf32>
    %1115 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1116 = stablehlo.divide %856, %1115 : tensor<32xf32>
    %1117 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1118 = stablehlo.divide %861, %1117 : tensor<32xf32>
    %1119 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1120 = stablehlo.divide %866, %1119 : tensor<32xf32>
    %1121 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %1122 = stablehlo.divide %871, %1121 : tensor<128xf32>
    %1123 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %1124 = stablehlo.divide %876, %1123 : tensor<128x32xf32>
    %1125 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1126 = stablehlo.divide %881, %1125 : tensor<32xf32>
    %1127 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %1128 = stablehlo.divide %886, %1127 : tensor<32x128xf32>
    %1129 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1130 = stablehlo.divide %891, %1129 : tensor<32xf32>
    %1131 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1132 = stablehlo.divide %896, %1131 : tensor<32xf32>
    %1133 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %1134 = stablehlo.divide %901, %1133 : tensor<16x32xf32>
    %1135 = stablehlo.broadcast_in_dim %1080, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1136 = stablehlo.divide %906, %1135 : tensor<64x32xf32>
    %cst_295 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %1137 = stablehlo.convert %1077 : (tensor<i32>) -> tensor<f32>
    %1138 = stablehlo.power %cst_295, %1137 : tensor<f32>
    %cst_296 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1139 = stablehlo.subtract %cst_296, %1138 : tensor<f32>
    %1140 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<96xf32>
    %1141 = stablehlo.divide %912, %1140 : tensor<96xf32>
    %1142 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<96x32xf32>
    %1143 = stablehlo.divide %918, %1142 : tensor<96x32xf32>
    %1144 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1145 = stablehlo.divide %924, %1144 : tensor<32xf32>
    %1146 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1147 = stablehlo.divide %930, %1146 : tensor<32x32xf32>
    %1148 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1149 = stablehlo.divide %936, %1148 : tensor<32xf32>
    %1150 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1151 = stablehlo.divide %942, %1150 : tensor<32xf32>
    %1152 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1153 = stablehlo.divide %948, %1152 : tensor<32xf32>
    %1154 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1155 = stablehlo.divide %954, %1154 : tensor<32xf32>
    %1156 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %1157 = stablehlo.divide %960, %1156 : tensor<128xf32>
    %1158 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %1159 = stablehlo.divide %966, %1158 : tensor<128x32xf32>
    %1160 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1161 = stablehlo.divide %972, %1160 : tensor<32xf32>
    %1162 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %1163 = stablehlo.divide %978, %1162 : tensor<32x128xf32>
    %1164 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<96xf32>
    %1165 = stablehlo.divide %984, %1164 : tensor<96xf32>
    %1166 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<96x32xf32>
    %1167 = stablehlo.divide %990, %1166 : tensor<96x32xf32>
    %1168 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1169 = stablehlo.divide %996, %1168 : tensor<32xf32>
    %1170 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1171 = stablehlo.divide %1002, %1170 : tensor<32x32xf32>
    %1172 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1173 = stablehlo.divide %1008, %1172 : tensor<32xf32>
    %1174 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1175 = stablehlo.divide %1014, %1174 : tensor<32xf32>
    %1176 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1177 = stablehlo.divide %1020, %1176 : tensor<32xf32>
    %1178 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1179 = stablehlo.divide %1026, %1178 : tensor<32xf32>
    %1180 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %1181 = stablehlo.divide %1032, %1180 : tensor<128xf32>
    %1182 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %1183 = stablehlo.divide %1038, %1182 : tensor<128x32xf32>
    %1184 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1185 = stablehlo.divide %1044, %1184 : tensor<32xf32>
    %1186 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %1187 = stablehlo.divide %1050, %1186 : tensor<32x128xf32>
    %1188 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1189 = stablehlo.divide %1056, %1188 : tensor<32xf32>
    %1190 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1191 = stablehlo.divide %1062, %1190 : tensor<32xf32>
    %1192 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %1193 = stablehlo.divide %1068, %1192 : tensor<16x32xf32>
    %1194 = stablehlo.broadcast_in_dim %1139, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1195 = stablehlo.divide %1074, %1194 : tensor<64x32xf32>
    %cst_297 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1196 = stablehlo.broadcast_in_dim %cst_297, dims = [] : (tensor<f32>) -> tensor<96xf32>
    %1197 = stablehlo.add %1141, %1196 : tensor<96xf32>
    %1198 = stablehlo.sqrt %1197 : tensor<96xf32>
    %cst_298 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1199 = stablehlo.broadcast_in_dim %cst_298, dims = [] : (tensor<f32>) -> tensor<96xf32>
    %1200 = stablehlo.add %1198, %1199 : tensor<96xf32>
    %1201 = stablehlo.divide %1082, %1200 : tensor<96xf32>
    %cst_299 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1202 = stablehlo.broadcast_in_dim %cst_299, dims = [] : (tensor<f32>) -> tensor<96x32xf32>
    %1203 = stablehlo.add %1143, %1202 : tensor<96x32xf32>
    %1204 = stablehlo.sqrt %1203 : tensor<96x32xf32>
    %cst_300 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1205 = stablehlo.broadcast_in_dim %cst_300, dims = [] : (tensor<f32>) -> tensor<96x32xf32>
    %1206 = stablehlo.add %1204, %1205 : tensor<96x32xf32>
    %1207 = stablehlo.divide %1084, %1206 : tensor<96x32xf32>
    %cst_301 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1208 = stablehlo.broadcast_in_dim %cst_301, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1209 = stablehlo.add %1145, %1208 : tensor<32xf32>
    %1210 = stablehlo.sqrt %1209 : tensor<32xf32>
    %cst_302 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1211 = stablehlo.broadcast_in_dim %cst_302, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1212 = stablehlo.add %1210, %1211 : tensor<32xf32>
    %1213 = stablehlo.divide %1086, %1212 : tensor<32xf32>
    %cst_303 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1214 = stablehlo.broadcast_in_dim %cst_303, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1215 = stablehlo.add %1147, %1214 : tensor<32x32xf32>
    %1216 = stablehlo.sqrt %1215 : tensor<32x32xf32>
    %cst_304 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1217 = stablehlo.broadcast_in_dim %cst_304, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1218 = stablehlo.add %1216, %1217 : tensor<32x32xf32>
    %1219 = stablehlo.divide %1088, %1218 : tensor<32x32xf32>
    %cst_305 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1220 = stablehlo.broadcast_in_dim %cst_305, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1221 = stablehlo.add %1149, %1220 : tensor<32xf32>
    %1222 = stablehlo.sqrt %1221 : tensor<32xf32>
    %cst_306 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1223 = stablehlo.broadcast_in_dim %cst_306, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1224 = stablehlo.add %1222, %1223 : tensor<32xf32>
    %1225 = stablehlo.divide %1090, %1224 : tensor<32xf32>
    %cst_307 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1226 = stablehlo.broadcast_in_dim %cst_307, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1227 = stablehlo.add %1151, %1226 : tensor<32xf32>
    %1228 = stablehlo.sqrt %1227 : tensor<32xf32>
    %cst_308 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1229 = stablehlo.broadcast_in_dim %cst_308, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1230 = stablehlo.add %1228, %1229 : tensor<32xf32>
    %1231 = stablehlo.divide %1092, %1230 : tensor<32xf32>
    %cst_309 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1232 = stablehlo.broadcast_in_dim %cst_309, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1233 = stablehlo.add %1153, %1232 : tensor<32xf32>
    %1234 = stablehlo.sqrt %1233 : tensor<32xf32>
    %cst_310 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1235 = stablehlo.broadcast_in_dim %cst_310, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1236 = stablehlo.add %1234, %1235 : tensor<32xf32>
    %1237 = stablehlo.divide %1094, %1236 : tensor<32xf32>
    %cst_311 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1238 = stablehlo.broadcast_in_dim %cst_311, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1239 = stablehlo.add %1155, %1238 : tensor<32xf32>
    %1240 = stablehlo.sqrt %1239 : tensor<32xf32>
    %cst_312 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1241 = stablehlo.broadcast_in_dim %cst_312, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1242 = stablehlo.add %1240, %1241 : tensor<32xf32>
    %1243 = stablehlo.divide %1096, %1242 : tensor<32xf32>
    %cst_313 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1244 = stablehlo.broadcast_in_dim %cst_313, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %1245 = stablehlo.add %1157, %1244 : tensor<128xf32>
    %1246 = stablehlo.sqrt %1245 : tensor<128xf32>
    %cst_314 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1247 = stablehlo.broadcast_in_dim %cst_314, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %1248 = stablehlo.add %1246, %1247 : tensor<128xf32>
    %1249 = stablehlo.divide %1098, %1248 : tensor<128xf32>
    %cst_315 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1250 = stablehlo.broadcast_in_dim %cst_315, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %1251 = stablehlo.add %1159, %1250 : tensor<128x32xf32>
    %1252 = stablehlo.sqrt %1251 : tensor<128x32xf32>
    %cst_316 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1253 = stablehlo.broadcast_in_dim %cst_316, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %1254 = stablehlo.add %1252, %1253 : tensor<128x32xf32>
    %1255 = stablehlo.divide %1100, %1254 : tensor<128x32xf32>
    %cst_317 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1256 = stablehlo.broadcast_in_dim %cst_317, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1257 = stablehlo.add %1161, %1256 : tensor<32xf32>
    %1258 = stablehlo.sqrt %1257 : tensor<32xf32>
    %cst_318 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1259 = stablehlo.broadcast_in_dim %cst_318, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1260 = stablehlo.add %1258, %1259 : tensor<32xf32>
    %1261 = stablehlo.divide %1102, %1260 : tensor<32xf32>
    %cst_319 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1262 = stablehlo.broadcast_in_dim %cst_319, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %1263 = stablehlo.add %1163, %1262 : tensor<32x128xf32>
    %1264 = stablehlo.sqrt %1263 : tensor<32x128xf32>
    %cst_320 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1265 = stablehlo.broadcast_in_dim %cst_320, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %1266 = stablehlo.add %1264, %1265 : tensor<32x128xf32>
    %1267 = stablehlo.divide %1104, %1266 : tensor<32x128xf32>
    %cst_321 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1268 = stablehlo.broadcast_in_dim %cst_321, dims = [] : (tensor<f32>) -> tensor<96xf32>
    %1269 = stablehlo.add %1165, %1268 : tensor<96xf32>
    %1270 = stablehlo.sqrt %1269 : tensor<96xf32>
    %cst_322 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1271 = stablehlo.broadcast_in_dim %cst_322, dims = [] : (tensor<f32>) -> tensor<96xf32>
    %1272 = stablehlo.add %1270, %1271 : tensor<96xf32>
    %1273 = stablehlo.divide %1106, %1272 : tensor<96xf32>
    %cst_323 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1274 = stablehlo.broadcast_in_dim %cst_323, dims = [] : (tensor<f32>) -> tensor<96x32xf32>
    %1275 = stablehlo.add %1167, %1274 : tensor<96x32xf32>
    %1276 = stablehlo.sqrt %1275 : tensor<96x32xf32>
    %cst_324 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1277 = stablehlo.broadcast_in_dim %cst_324, dims = [] : (tensor<f32>) -> tensor<96x32xf32>
    %1278 = stablehlo.add %1276, %1277 : tensor<96x32xf32>
    %1279 = stablehlo.divide %1108, %1278 : tensor<96x32xf32>
    %cst_325 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1280 = stablehlo.broadcast_in_dim %cst_325, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1281 = stablehlo.add %1169, %1280 : tensor<32xf32>
    %1282 = stablehlo.sqrt %1281 : tensor<32xf32>
    %cst_326 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1283 = stablehlo.broadcast_in_dim %cst_326, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1284 = stablehlo.add %1282, %1283 : tensor<32xf32>
    %1285 = stablehlo.divide %1110, %1284 : tensor<32xf32>
    %cst_327 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1286 = stablehlo.broadcast_in_dim %cst_327, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1287 = stablehlo.add %1171, %1286 : tensor<32x32xf32>
    %1288 = stablehlo.sqrt %1287 : tensor<32x32xf32>
    %cst_328 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1289 = stablehlo.broadcast_in_dim %cst_328, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1290 = stablehlo.add %1288, %1289 : tensor<32x32xf32>
    %1291 = stablehlo.divide %1112, %1290 : tensor<32x32xf32>
    %cst_329 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1292 = stablehlo.broadcast_in_dim %cst_329, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1293 = stablehlo.add %1173, %1292 : tensor<32xf32>
    %1294 = stablehlo.sqrt %1293 : tensor<32xf32>
    %cst_330 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1295 = stablehlo.broadcast_in_dim %cst_330, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1296 = stablehlo.add %1294, %1295 : tensor<32xf32>
    %1297 = stablehlo.divide %1114, %1296 : tensor<32xf32>
    %cst_331 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1298 = stablehlo.broadcast_in_dim %cst_331, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1299 = stablehlo.add %1175, %1298 : tensor<32xf32>
    %1300 = stablehlo.sqrt %1299 : tensor<32xf32>
    %cst_332 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1301 = stablehlo.broadcast_in_dim %cst_332, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1302 = stablehlo.add %1300, %1301 : tensor<32xf32>
    %1303 = stablehlo.divide %1116, %1302 : tensor<32xf32>
    %cst_333 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1304 = stablehlo.broadcast_in_dim %cst_333, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1305 = stablehlo.add %1177, %1304 : tensor<32xf32>
    %1306 = stablehlo.sqrt %1305 : tensor<32xf32>
    %cst_334 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1307 = stablehlo.broadcast_in_dim %cst_334, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1308 = stablehlo.add %1306, %1307 : tensor<32xf32>
    %1309 = stablehlo.divide %1118, %1308 : tensor<32xf32>
    %cst_335 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1310 = stablehlo.broadcast_in_dim %cst_335, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1311 = stablehlo.add %1179, %1310 : tensor<32xf32>
    %1312 = stablehlo.sqrt %1311 : tensor<32xf32>
    %cst_336 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1313 = stablehlo.broadcast_in_dim %cst_336, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1314 = stablehlo.add %1312, %1313 : tensor<32xf32>
    %1315 = stablehlo.divide %1120, %1314 : tensor<32xf32>
    %cst_337 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1316 = stablehlo.broadcast_in_dim %cst_337, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %1317 = stablehlo.add %1181, %1316 : tensor<128xf32>
    %1318 = stablehlo.sqrt %1317 : tensor<128xf32>
    %cst_338 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1319 = stablehlo.broadcast_in_dim %cst_338, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %1320 = stablehlo.add %1318, %1319 : tensor<128xf32>
    %1321 = stablehlo.divide %1122, %1320 : tensor<128xf32>
    %cst_339 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1322 = stablehlo.broadcast_in_dim %cst_339, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %1323 = stablehlo.add %1183, %1322 : tensor<128x32xf32>
    %1324 = stablehlo.sqrt %1323 : tensor<128x32xf32>
    %cst_340 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1325 = stablehlo.broadcast_in_dim %cst_340, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %1326 = stablehlo.add %1324, %1325 : tensor<128x32xf32>
    %1327 = stablehlo.divide %1124, %1326 : tensor<128x32xf32>
    %cst_341 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1328 = stablehlo.broadcast_in_dim %cst_341, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1329 = stablehlo.add %1185, %1328 : tensor<32xf32>
    %1330 = stablehlo.sqrt %1329 : tensor<32xf32>
    %cst_342 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1331 = stablehlo.broadcast_in_dim %cst_342, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1332 = stablehlo.add %1330, %1331 : tensor<32xf32>
    %1333 = stablehlo.divide %1126, %1332 : tensor<32xf32>
    %cst_343 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1334 = stablehlo.broadcast_in_dim %cst_343, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %1335 = stablehlo.add %1187, %1334 : tensor<32x128xf32>
    %1336 = stablehlo.sqrt %1335 : tensor<32x128xf32>
    %cst_344 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1337 = stablehlo.broadcast_in_dim %cst_344, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %1338 = stablehlo.add %1336, %1337 : tensor<32x128xf32>
    %1339 = stablehlo.divide %1128, %1338 : tensor<32x128xf32>
    %cst_345 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1340 = stablehlo.broadcast_in_dim %cst_345, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1341 = stablehlo.add %1189, %1340 : tensor<32xf32>
    %1342 = stablehlo.sqrt %1341 : tensor<32xf32>
    %cst_346 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1343 = stablehlo.broadcast_in_dim %cst_346, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1344 = stablehlo.add %1342, %1343 : tensor<32xf32>
    %1345 = stablehlo.divide %1130, %1344 : tensor<32xf32>
    %cst_347 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1346 = stablehlo.broadcast_in_dim %cst_347, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1347 = stablehlo.add %1191, %1346 : tensor<32xf32>
    %1348 = stablehlo.sqrt %1347 : tensor<32xf32>
    %cst_348 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1349 = stablehlo.broadcast_in_dim %cst_348, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1350 = stablehlo.add %1348, %1349 : tensor<32xf32>
    %1351 = stablehlo.divide %1132, %1350 : tensor<32xf32>
    %cst_349 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1352 = stablehlo.broadcast_in_dim %cst_349, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %1353 = stablehlo.add %1193, %1352 : tensor<16x32xf32>
    %1354 = stablehlo.sqrt %1353 : tensor<16x32xf32>
    %cst_350 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1355 = stablehlo.broadcast_in_dim %cst_350, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %1356 = stablehlo.add %1354, %1355 : tensor<16x32xf32>
    %1357 = stablehlo.divide %1134, %1356 : tensor<16x32xf32>
    %cst_351 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1358 = stablehlo.broadcast_in_dim %cst_351, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1359 = stablehlo.add %1195, %1358 : tensor<64x32xf32>
    %1360 = stablehlo.sqrt %1359 : tensor<64x32xf32>
    %cst_352 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %1361 = stablehlo.broadcast_in_dim %cst_352, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1362 = stablehlo.add %1360, %1361 : tensor<64x32xf32>
    %1363 = stablehlo.divide %1136, %1362 : tensor<64x32xf32>
    %cst_353 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1364 = stablehlo.broadcast_in_dim %cst_353, dims = [] : (tensor<f32>) -> tensor<96xf32>
    %1365 = stablehlo.multiply %1364, %arg0 : tensor<96xf32>
    %1366 = stablehlo.add %1201, %1365 : tensor<96xf32>
    %cst_354 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1367 = stablehlo.broadcast_in_dim %cst_354, dims = [] : (tensor<f32>) -> tensor<96x32xf32>
    %1368 = stablehlo.multiply %1367, %arg1 : tensor<96x32xf32>
    %1369 = stablehlo.add %1207, %1368 : tensor<96x32xf32>
    %cst_355 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1370 = stablehlo.broadcast_in_dim %cst_355, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1371 = stablehlo.multiply %1370, %arg2 : tensor<32xf32>
    %1372 = stablehlo.add %1213, %1371 : tensor<32xf32>
    %cst_356 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1373 = stablehlo.broadcast_in_dim %cst_356, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1374 = stablehlo.multiply %1373, %arg3 : tensor<32x32xf32>
    %1375 = stablehlo.add %1219, %1374 : tensor<32x32xf32>
    %cst_357 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1376 = stablehlo.broadcast_in_dim %cst_357, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1377 = stablehlo.multiply %1376, %arg4 : tensor<32xf32>
    %1378 = stablehlo.add %1225, %1377 : tensor<32xf32>
    %cst_358 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1379 = stablehlo.broadcast_in_dim %cst_358, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1380 = stablehlo.multiply %1379, %arg5 : tensor<32xf32>
    %1381 = stablehlo.add %1231, %1380 : tensor<32xf32>
    %cst_359 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1382 = stablehlo.broadcast_in_dim %cst_359, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1383 = stablehlo.multiply %1382, %arg6 : tensor<32xf32>
    %1384 = stablehlo.add %1237, %1383 : tensor<32xf32>
    %cst_360 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1385 = stablehlo.broadcast_in_dim %cst_360, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1386 = stablehlo.multiply %1385, %arg7 : tensor<32xf32>
    %1387 = stablehlo.add %1243, %1386 : tensor<32xf32>
    %cst_361 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1388 = stablehlo.broadcast_in_dim %cst_361, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %1389 = stablehlo.multiply %1388, %arg8 : tensor<128xf32>
    %1390 = stablehlo.add %1249, %1389 : tensor<128xf32>
    %cst_362 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1391 = stablehlo.broadcast_in_dim %cst_362, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %1392 = stablehlo.multiply %1391, %arg9 : tensor<128x32xf32>
    %1393 = stablehlo.add %1255, %1392 : tensor<128x32xf32>
    %cst_363 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1394 = stablehlo.broadcast_in_dim %cst_363, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1395 = stablehlo.multiply %1394, %arg10 : tensor<32xf32>
    %1396 = stablehlo.add %1261, %1395 : tensor<32xf32>
    %cst_364 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1397 = stablehlo.broadcast_in_dim %cst_364, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %1398 = stablehlo.multiply %1397, %arg11 : tensor<32x128xf32>
    %1399 = stablehlo.add %1267, %1398 : tensor<32x128xf32>
    %cst_365 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1400 = stablehlo.broadcast_in_dim %cst_365, dims = [] : (tensor<f32>) -> tensor<96xf32>
    %1401 = stablehlo.multiply %1400, %arg12 : tensor<96xf32>
    %1402 = stablehlo.add %1273, %1401 : tensor<96xf32>
    %cst_366 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1403 = stablehlo.broadcast_in_dim %cst_366, dims = [] : (tensor<f32>) -> tensor<96x32xf32>
    %1404 = stablehlo.multiply %1403, %arg13 : tensor<96x32xf32>
    %1405 = stablehlo.add %1279, %1404 : tensor<96x32xf32>
    %cst_367 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1406 = stablehlo.broadcast_in_dim %cst_367, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1407 = stablehlo.multiply %1406, %arg14 : tensor<32xf32>
    %1408 = stablehlo.add %1285, %1407 : tensor<32xf32>
    %cst_368 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1409 = stablehlo.broadcast_in_dim %cst_368, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1410 = stablehlo.multiply %1409, %arg15 : tensor<32x32xf32>
    %1411 = stablehlo.add %1291, %1410 : tensor<32x32xf32>
    %cst_369 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1412 = stablehlo.broadcast_in_dim %cst_369, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1413 = stablehlo.multiply %1412, %arg16 : tensor<32xf32>
    %1414 = stablehlo.add %1297, %1413 : tensor<32xf32>
    %cst_370 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1415 = stablehlo.broadcast_in_dim %cst_370, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1416 = stablehlo.multiply %1415, %arg17 : tensor<32xf32>
    %1417 = stablehlo.add %1303, %1416 : tensor<32xf32>
    %cst_371 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1418 = stablehlo.broadcast_in_dim %cst_371, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1419 = stablehlo.multiply %1418, %arg18 : tensor<32xf32>
    %1420 = stablehlo.add %1309, %1419 : tensor<32xf32>
    %cst_372 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1421 = stablehlo.broadcast_in_dim %cst_372, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1422 = stablehlo.multiply %1421, %arg19 : tensor<32xf32>
    %1423 = stablehlo.add %1315, %1422 : tensor<32xf32>
    %cst_373 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1424 = stablehlo.broadcast_in_dim %cst_373, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %1425 = stablehlo.multiply %1424, %arg20 : tensor<128xf32>
    %1426 = stablehlo.add %1321, %1425 : tensor<128xf32>
    %cst_374 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1427 = stablehlo.broadcast_in_dim %cst_374, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %1428 = stablehlo.multiply %1427, %arg21 : tensor<128x32xf32>
    %1429 = stablehlo.add %1327, %1428 : tensor<128x32xf32>
    %cst_375 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1430 = stablehlo.broadcast_in_dim %cst_375, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1431 = stablehlo.multiply %1430, %arg22 : tensor<32xf32>
    %1432 = stablehlo.add %1333, %1431 : tensor<32xf32>
    %cst_376 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1433 = stablehlo.broadcast_in_dim %cst_376, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %1434 = stablehlo.multiply %1433, %arg23 : tensor<32x128xf32>
    %1435 = stablehlo.add %1339, %1434 : tensor<32x128xf32>
    %cst_377 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1436 = stablehlo.broadcast_in_dim %cst_377, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1437 = stablehlo.multiply %1436, %arg24 : tensor<32xf32>
    %1438 = stablehlo.add %1345, %1437 : tensor<32xf32>
    %cst_378 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1439 = stablehlo.broadcast_in_dim %cst_378, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1440 = stablehlo.multiply %1439, %arg25 : tensor<32xf32>
    %1441 = stablehlo.add %1351, %1440 : tensor<32xf32>
    %cst_379 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1442 = stablehlo.broadcast_in_dim %cst_379, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %1443 = stablehlo.multiply %1442, %arg26 : tensor<16x32xf32>
    %1444 = stablehlo.add %1357, %1443 : tensor<16x32xf32>
    %cst_380 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
    %1445 = stablehlo.broadcast_in_dim %cst_380, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1446 = stablehlo.multiply %1445, %arg27 : tensor<64x32xf32>
    %1447 = stablehlo.add %1363, %1446 : tensor<64x32xf32>
    %cst_381 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1448 = stablehlo.broadcast_in_dim %cst_381, dims = [] : (tensor<f32>) -> tensor<96xf32>
    %1449 = stablehlo.multiply %1448, %1366 : tensor<96xf32>
    %cst_382 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1450 = stablehlo.broadcast_in_dim %cst_382, dims = [] : (tensor<f32>) -> tensor<96x32xf32>
    %1451 = stablehlo.multiply %1450, %1369 : tensor<96x32xf32>
    %cst_383 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1452 = stablehlo.broadcast_in_dim %cst_383, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1453 = stablehlo.multiply %1452, %1372 : tensor<32xf32>
    %cst_384 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1454 = stablehlo.broadcast_in_dim %cst_384, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1455 = stablehlo.multiply %1454, %1375 : tensor<32x32xf32>
    %cst_385 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1456 = stablehlo.broadcast_in_dim %cst_385, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1457 = stablehlo.multiply %1456, %1378 : tensor<32xf32>
    %cst_386 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1458 = stablehlo.broadcast_in_dim %cst_386, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1459 = stablehlo.multiply %1458, %1381 : tensor<32xf32>
    %cst_387 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1460 = stablehlo.broadcast_in_dim %cst_387, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1461 = stablehlo.multiply %1460, %1384 : tensor<32xf32>
    %cst_388 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1462 = stablehlo.broadcast_in_dim %cst_388, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1463 = stablehlo.multiply %1462, %1387 : tensor<32xf32>
    %cst_389 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1464 = stablehlo.broadcast_in_dim %cst_389, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %1465 = stablehlo.multiply %1464, %1390 : tensor<128xf32>
    %cst_390 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1466 = stablehlo.broadcast_in_dim %cst_390, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %1467 = stablehlo.multiply %1466, %1393 : tensor<128x32xf32>
    %cst_391 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1468 = stablehlo.broadcast_in_dim %cst_391, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1469 = stablehlo.multiply %1468, %1396 : tensor<32xf32>
    %cst_392 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1470 = stablehlo.broadcast_in_dim %cst_392, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %1471 = stablehlo.multiply %1470, %1399 : tensor<32x128xf32>
    %cst_393 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1472 = stablehlo.broadcast_in_dim %cst_393, dims = [] : (tensor<f32>) -> tensor<96xf32>
    %1473 = stablehlo.multiply %1472, %1402 : tensor<96xf32>
    %cst_394 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1474 = stablehlo.broadcast_in_dim %cst_394, dims = [] : (tensor<f32>) -> tensor<96x32xf32>
    %1475 = stablehlo.multiply %1474, %1405 : tensor<96x32xf32>
    %cst_395 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1476 = stablehlo.broadcast_in_dim %cst_395, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1477 = stablehlo.multiply %1476, %1408 : tensor<32xf32>
    %cst_396 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1478 = stablehlo.broadcast_in_dim %cst_396, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %1479 = stablehlo.multiply %1478, %1411 : tensor<32x32xf32>
    %cst_397 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1480 = stablehlo.broadcast_in_dim %cst_397, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1481 = stablehlo.multiply %1480, %1414 : tensor<32xf32>
    %cst_398 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1482 = stablehlo.broadcast_in_dim %cst_398, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1483 = stablehlo.multiply %1482, %1417 : tensor<32xf32>
    %cst_399 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1484 = stablehlo.broadcast_in_dim %cst_399, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1485 = stablehlo.multiply %1484, %1420 : tensor<32xf32>
    %cst_400 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1486 = stablehlo.broadcast_in_dim %cst_400, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1487 = stablehlo.multiply %1486, %1423 : tensor<32xf32>
    %cst_401 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1488 = stablehlo.broadcast_in_dim %cst_401, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %1489 = stablehlo.multiply %1488, %1426 : tensor<128xf32>
    %cst_402 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1490 = stablehlo.broadcast_in_dim %cst_402, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %1491 = stablehlo.multiply %1490, %1429 : tensor<128x32xf32>
    %cst_403 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1492 = stablehlo.broadcast_in_dim %cst_403, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1493 = stablehlo.multiply %1492, %1432 : tensor<32xf32>
    %cst_404 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1494 = stablehlo.broadcast_in_dim %cst_404, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %1495 = stablehlo.multiply %1494, %1435 : tensor<32x128xf32>
    %cst_405 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1496 = stablehlo.broadcast_in_dim %cst_405, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1497 = stablehlo.multiply %1496, %1438 : tensor<32xf32>
    %cst_406 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1498 = stablehlo.broadcast_in_dim %cst_406, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %1499 = stablehlo.multiply %1498, %1441 : tensor<32xf32>
    %cst_407 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1500 = stablehlo.broadcast_in_dim %cst_407, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %1501 = stablehlo.multiply %1500, %1444 : tensor<16x32xf32>
    %cst_408 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %1502 = stablehlo.broadcast_in_dim %cst_408, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1503 = stablehlo.multiply %1502, %1447 : tensor<64x32xf32>
    %1504 = stablehlo.add %arg0, %1449 : tensor<96xf32>
    %1505 = stablehlo.add %arg1, %1451 : tensor<96x32xf32>
    %1506 = stablehlo.add %arg2, %1453 : tensor<32xf32>
    %1507 = stablehlo.add %arg3, %1455 : tensor<32x32xf32>
    %1508 = stablehlo.add %arg4, %1457 : tensor<32xf32>
    %1509 = stablehlo.add %arg5, %1459 : tensor<32xf32>
    %1510 = stablehlo.add %arg6, %1461 : tensor<32xf32>
    %1511 = stablehlo.add %arg7, %1463 : tensor<32xf32>
    %1512 = stablehlo.add %arg8, %1465 : tensor<128xf32>
    %1513 = stablehlo.add %arg9, %1467 : tensor<128x32xf32>
    %1514 = stablehlo.add %arg10, %1469 : tensor<32xf32>
    %1515 = stablehlo.add %arg11, %1471 : tensor<32x128xf32>
    %1516 = stablehlo.add %arg12, %1473 : tensor<96xf32>
    %1517 = stablehlo.add %arg13, %1475 : tensor<96x32xf32>
    %1518 = stablehlo.add %arg14, %1477 : tensor<32xf32>
    %1519 = stablehlo.add %arg15, %1479 : tensor<32x32xf32>
    %1520 = stablehlo.add %arg16, %1481 : tensor<32xf32>
    %1521 = stablehlo.add %arg17, %1483 : tensor<32xf32>
    %1522 = stablehlo.add %arg18, %1485 : tensor<32xf32>
    %1523 = stablehlo.add %arg19, %1487 : tensor<32xf32>
    %1524 = stablehlo.add %arg20, %1489 : tensor<128xf32>
    %1525 = stablehlo.add %arg21, %1491 : tensor<128x32xf32>
    %1526 = stablehlo.add %arg22, %1493 : tensor<32xf32>
    %1527 = stablehlo.add %arg23, %1495 : tensor<32x128xf32>
    %1528 = stablehlo.add %arg24, %1497 : tensor<32xf32>
    %1529 = stablehlo.add %arg25, %1499 : tensor<32xf32>
    %1530 = stablehlo.add %arg26, %1501 : tensor<16x32xf32>
    %1531 = stablehlo.add %arg27, %1503 : tensor<64x32xf32>
    return %1504, %1505, %1506, %1507, %1508, %1509, %1510, %1511, %1512, %1513, %1514, %1515, %1516, %1517, %1518, %1519, %1520, %1521, %1522, %1523, %1524, %1525, %1526, %1527, %1528, %1529, %1530, %1531, %1077, %771, %776, %781, %786, %791, %796, %801, %806, %811, %816, %821, %826, %831, %836, %841, %846, %851, %856, %861, %866, %871, %876, %881, %886, %891, %896, %901, %906, %912, %918, %924, %930, %936, %942, %948, %954, %960, %966, %972, %978, %984, %990, %996, %1002, %1008, %1014, %1020, %1026, %1032, %1038, %1044, %1050, %1056, %1062, %1068, %1074, %438 : tensor<96xf32>, tensor<96x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128xf32>, tensor<128x32xf32>, tensor<32xf32>, tensor<32x128xf32>, tensor<96xf32>, tensor<96x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128xf32>, tensor<128x32xf32>, tensor<32xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<64x32xf32>, tensor<i32>, tensor<96xf32>, tensor<96x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128xf32>, tensor<128x32xf32>, tensor<32xf32>, tensor<32x128xf32>, tensor<96xf32>, tensor<96x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128xf32>, tensor<128x32xf32>, tensor<32xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<64x32xf32>, tensor<96xf32>, tensor<96x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128xf32>, tensor<128x32xf32>, tensor<32xf32>, tensor<32x128xf32>, tensor<96xf32>, tensor<96x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128xf32>, tensor<128x32xf32>, tensor<32xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<64x32xf32>, tensor<f32>
  }
  func.func private @_take(%arg0: tensor<64x32xf32>, %arg1: tensor<4x8xi32>) -> (tensor<4x8x32xf32>, tensor<4x8x1xi32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
    %c_0 = stablehlo.constant dense<64> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<4x8xi32>
    %4 = call @_where(%1, %3, %arg1) : (tensor<4x8xi1>, tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<4x8xi32>) -> tensor<4x8x1xi32>
    %c_1 = stablehlo.constant dense<63> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<4x8x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<4x8x1xi32>, tensor<4x8x1xi32>) -> tensor<4x8x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<4x8x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<4x8x1xi32>, tensor<4x8x1xi32>) -> tensor<4x8x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<4x8x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<4x8x1xi1>, tensor<i1>) -> tensor<4x8xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xf32>, tensor<4x8x1xi32>) -> tensor<4x8x32xf32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<4x8xi1>) -> tensor<4x8x32xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8x32xf32>
    %16 = stablehlo.select %14, %13, %15 : tensor<4x8x32xi1>, tensor<4x8x32xf32>
    return %16, %5 : tensor<4x8x32xf32>, tensor<4x8x1xi32>
  }
  func.func private @_where(%arg0: tensor<4x8xi1>, %arg1: tensor<4x8xi32>, %arg2: tensor<4x8xi32>) -> tensor<4x8xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<4x8xi1>, tensor<4x8xi32>
    return %0 : tensor<4x8xi32>
  }
  func.func private @_take_0(%arg0: tensor<16x32xf32>, %arg1: tensor<4x8xi32>) -> (tensor<4x8x32xf32>, tensor<4x8x1xi32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
    %c_0 = stablehlo.constant dense<16> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<4x8xi32>
    %4 = call @_where(%1, %3, %arg1) : (tensor<4x8xi1>, tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<4x8xi32>) -> tensor<4x8x1xi32>
    %c_1 = stablehlo.constant dense<15> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<4x8x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<4x8x1xi32>, tensor<4x8x1xi32>) -> tensor<4x8x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<4x8x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<4x8x1xi32>, tensor<4x8x1xi32>) -> tensor<4x8x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<4x8x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<4x8x1xi1>, tensor<i1>) -> tensor<4x8xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<16x32xf32>, tensor<4x8x1xi32>) -> tensor<4x8x32xf32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<4x8xi1>) -> tensor<4x8x32xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8x32xf32>
    %16 = stablehlo.select %14, %13, %15 : tensor<4x8x32xi1>, tensor<4x8x32xf32>
    return %16, %5 : tensor<4x8x32xf32>, tensor<4x8x1xi32>
  }
  func.func private @take_along_axis(%arg0: tensor<4x8x64xf32>, %arg1: tensor<4x8x1xi32>) -> (tensor<4x8x1xf32>, tensor<4x8x1x1xi32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x8x1xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<4x8x1xi32>, tensor<4x8x1xi32>) -> tensor<4x8x1xi1>
    %c_0 = stablehlo.constant dense<64> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4x8x1xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<4x8x1xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<4x8x1xi1>, tensor<4x8x1xi32>
    %5 = stablehlo.reshape %4 : (tensor<4x8x1xi32>) -> tensor<4x8x1x1xi32>
    %c_1 = stablehlo.constant dense<63> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<4x8x1x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<4x8x1x1xi32>, tensor<4x8x1x1xi32>) -> tensor<4x8x1x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [3] : (tensor<1xi32>) -> tensor<1x1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2, 3] : (tensor<1x1x1x1xi32>) -> tensor<4x8x1x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<4x8x1x1xi32>, tensor<4x8x1x1xi32>) -> tensor<4x8x1x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<4x8x1x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [3] : (tensor<4x8x1x1xi1>, tensor<i1>) -> tensor<4x8x1xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<4x8x64xf32>, tensor<4x8x1x1xi32>) -> tensor<4x8x1xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<4x8x1xi1>, tensor<4x8x1xf32>
    return %15, %5 : tensor<4x8x1xf32>, tensor<4x8x1x1xi32>
  }
  func.func private @_take_1(%arg0: tensor<4x8x1xf32>, %arg1: tensor<i32>) -> (tensor<4x8xf32>, tensor<1xi32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare LT, %arg1, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.add %arg1, %c_0 : tensor<i32>
    %2 = call @_where_2(%0, %1, %arg1) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
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
    %10 = "stablehlo.gather"(%arg0, %4) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], collapsed_slice_dims = [2], start_index_map = [2]>, indices_are_sorted = false, slice_sizes = array<i64: 4, 8, 1>}> : (tensor<4x8x1xf32>, tensor<1xi32>) -> tensor<4x8xf32>
    %11 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i1>) -> tensor<4x8xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %13 = stablehlo.select %11, %10, %12 : tensor<4x8xi1>, tensor<4x8xf32>
    return %13, %3 : tensor<4x8xf32>, tensor<1xi32>
  }
  func.func private @_where_2(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @_take_3(%arg0: tensor<1xi32>, %arg1: tensor<4x8xf32>) -> tensor<4x8x1xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1], inserted_window_dims = [2], scatter_dims_to_operand_dims = [2]>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x8x1xf32>, tensor<1xi32>, tensor<4x8xf32>) -> tensor<4x8x1xf32>
    return %1 : tensor<4x8x1xf32>
  }
  func.func private @take_along_axis_4(%arg0: tensor<4x8x1x1xi32>, %arg1: tensor<4x8x1xf32>) -> tensor<4x8x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8x64xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [2], input_batching_dims = [0, 1], scatter_indices_batching_dims = [0, 1], scatter_dims_to_operand_dims = [2], index_vector_dim = 3>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x8x64xf32>, tensor<4x8x1x1xi32>, tensor<4x8x1xf32>) -> tensor<4x8x64xf32>
    return %1 : tensor<4x8x64xf32>
  }
  func.func private @_take_5(%arg0: tensor<4x8x1xi32>, %arg1: tensor<4x8x32xf32>) -> tensor<16x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<16x32xf32>, tensor<4x8x1xi32>, tensor<4x8x32xf32>) -> tensor<16x32xf32>
    return %1 : tensor<16x32xf32>
  }
  func.func private @_take_6(%arg0: tensor<4x8x1xi32>, %arg1: tensor<4x8x32xf32>) -> tensor<64x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<64x32xf32>, tensor<4x8x1xi32>, tensor<4x8x32xf32>) -> tensor<64x32xf32>
    return %1 : tensor<64x32xf32>
  }
  func.func private @_where_7(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
