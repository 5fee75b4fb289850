module @jit_step attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {"data"}]>}, %arg1: tensor<2x32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, %arg2: tensor<2x4x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, %arg3: tensor<2x32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, %arg4: tensor<2x32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, %arg5: tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg6: tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg7: tensor<2x32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}]>}, %arg8: tensor<2x64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {"data"}]>}, %arg9: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg10: tensor<i32> {sdy.sharding = #sdy.sharding<@mesh, []>}, %arg11: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {"data"}]>}, %arg12: tensor<2x32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, %arg13: tensor<2x4x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, %arg14: tensor<2x32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, %arg15: tensor<2x32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, %arg16: tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg17: tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg18: tensor<2x32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}]>}, %arg19: tensor<2x64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {"data"}]>}, %arg20: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg21: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {"data"}]>}, %arg22: tensor<2x32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, %arg23: tensor<2x4x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, %arg24: tensor<2x32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, %arg25: tensor<2x32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, %arg26: tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg27: tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg28: tensor<2x32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}]>}, %arg29: tensor<2x64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {"data"}]>}, %arg30: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg31: tensor<4x9xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<64x32xf32> {jax.result_info = "result[0]['params']['embed']['embedding']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {"data"}]>}, tensor<2x32x4x8xf32> {jax.result_info = "result[0]['params']['layers']['attn']['key']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, tensor<2x4x8x32xf32> {jax.result_info = "result[0]['params']['layers']['attn']['out']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, tensor<2x32x4x8xf32> {jax.result_info = "result[0]['params']['layers']['attn']['query']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, tensor<2x32x4x8xf32> {jax.result_info = "result[0]['params']['layers']['attn']['value']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, tensor<2x32xf32> {jax.result_info = "result[0]['params']['layers']['ln1']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<2x32xf32> {jax.result_info = "result[0]['params']['layers']['ln2']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<2x32x64xf32> {jax.result_info = "result[0]['params']['layers']['wi']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}]>}, tensor<2x64x32xf32> {jax.result_info = "result[0]['params']['layers']['wo']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {"data"}]>}, tensor<32xf32> {jax.result_info = "result[0]['params']['ln_f']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<i32> {jax.result_info = "result[1][0].count", sdy.sharding = #sdy.sharding<@mesh, []>}, tensor<64x32xf32> {jax.result_info = "result[1][0].mu['params']['embed']['embedding']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {"data"}]>}, tensor<2x32x4x8xf32> {jax.result_info = "result[1][0].mu['params']['layers']['attn']['key']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, tensor<2x4x8x32xf32> {jax.result_info = "result[1][0].mu['params']['layers']['attn']['out']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, tensor<2x32x4x8xf32> {jax.result_info = "result[1][0].mu['params']['layers']['attn']['query']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, tensor<2x32x4x8xf32> {jax.result_info = "result[1][0].mu['params']['layers']['attn']['value']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, tensor<2x32xf32> {jax.result_info = "result[1][0].mu['params']['layers']['ln1']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<2x32xf32> {jax.result_info = "result[1][0].mu['params']['layers']['ln2']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<2x32x64xf32> {jax.result_info = "result[1][0].mu['params']['layers']['wi']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}]>}, tensor<2x64x32xf32> {jax.result_info = "result[1][0].mu['params']['layers']['wo']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {"data"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['params']['ln_f']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<64x32xf32> {jax.result_info = "result[1][0].nu['params']['embed']['embedding']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {"data"}]>}, tensor<2x32x4x8xf32> {jax.result_info = "result[1][0].nu['params']['layers']['attn']['key']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, tensor<2x4x8x32xf32> {jax.result_info = "result[1][0].nu['params']['layers']['attn']['out']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, tensor<2x32x4x8xf32> {jax.result_info = "result[1][0].nu['params']['layers']['attn']['query']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, tensor<2x32x4x8xf32> {jax.result_info = "result[1][0].nu['params']['layers']['attn']['value']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, tensor<2x32xf32> {jax.result_info = "result[1][0].nu['params']['layers']['ln1']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<2x32xf32> {jax.result_info = "result[1][0].nu['params']['layers']['ln2']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<2x32x64xf32> {jax.result_info = "result[1][0].nu['params']['layers']['wi']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}]>}, tensor<2x64x32xf32> {jax.result_info = "result[1][0].nu['params']['layers']['wo']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {"data"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['params']['ln_f']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<f32> {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, []>}) {
    %0 = stablehlo.slice %arg31 [0:4, 0:8] : (tensor<4x9xi32>) -> tensor<4x8xi32>
    %1:2 = call @_take(%arg0, %0) : (tensor<64x32xf32>, tensor<4x8xi32>) -> (tensor<4x8x32xf32>, tensor<4x8x1xi32>)
    %2 = stablehlo.convert %1#0 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
    %3 = stablehlo.iota dim = 0 : tensor<8xi32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [1] : (tensor<8xi32>) -> tensor<4x8xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<4x8xi32>) -> tensor<4x8x1xi32>
    %6 = stablehlo.broadcast_in_dim %4, dims = [0, 2] : (tensor<4x8xi32>) -> tensor<4x1x8xi32>
    %7 = stablehlo.broadcast_in_dim %5, dims = [0, 1, 2] : (tensor<4x8x1xi32>) -> tensor<4x8x8xi32>
    %8 = stablehlo.broadcast_in_dim %6, dims = [0, 1, 2] : (tensor<4x1x8xi32>) -> tensor<4x8x8xi32>
    %9 = stablehlo.compare GE, %7, %8, SIGNED : (tensor<4x8x8xi32>, tensor<4x8x8xi32>) -> tensor<4x8x8xi1>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 2, 3] : (tensor<4x8x8xi1>) -> tensor<4x1x8x8xi1>
    %11 = stablehlo.convert %10 : (tensor<4x1x8x8xi1>) -> tensor<4x1x8x8xf32>
    %cst = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %12 = stablehlo.sqrt %cst : tensor<f32>
    %13 = stablehlo.convert %12 : (tensor<f32>) -> tensor<bf16>
    %cst_0 = stablehlo.constant dense<-3.389530e+38> : tensor<bf16>
    %14:2 = call @_where_0(%11, %cst_0) : (tensor<4x1x8x8xf32>, tensor<bf16>) -> (tensor<4x4x8x8xi1>, tensor<4x4x8x8xbf16>)
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %15 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<bf16>) -> tensor<2x4x8x32xbf16>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %16:14 = stablehlo.while(%iterArg = %arg1, %iterArg_130 = %arg2, %iterArg_131 = %arg3, %iterArg_132 = %arg4, %iterArg_133 = %arg5, %iterArg_134 = %arg6, %iterArg_135 = %arg7, %iterArg_136 = %arg8, %iterArg_137 = %13, %iterArg_138 = %14#0, %iterArg_139 = %14#1, %iterArg_140 = %c, %iterArg_141 = %2, %iterArg_142 = %15) : tensor<2x32x4x8xf32>, tensor<2x4x8x32xf32>, tensor<2x32x4x8xf32>, tensor<2x32x4x8xf32>, tensor<2x32xf32>, tensor<2x32xf32>, tensor<2x32x64xf32>, tensor<2x64x32xf32>, tensor<bf16>, tensor<4x4x8x8xi1>, tensor<4x4x8x8xbf16>, tensor<i32>, tensor<4x8x32xbf16>, tensor<2x4x8x32xbf16>
    cond {
      %c_143 = stablehlo.constant dense<2> : tensor<i32>
      %429 = stablehlo.compare LT, %iterArg_140, %c_143, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %429 : tensor<i1>
    } do {
      %429 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_140) : (tensor<2x32x4x8xf32>, tensor<i32>) -> tensor<32x4x8xf32>
      %430 = func.call @dynamic_index_in_dim_1(%iterArg_130, %iterArg_140) : (tensor<2x4x8x32xf32>, tensor<i32>) -> tensor<4x8x32xf32>
      %431 = func.call @dynamic_index_in_dim(%iterArg_131, %iterArg_140) : (tensor<2x32x4x8xf32>, tensor<i32>) -> tensor<32x4x8xf32>
      %432 = func.call @dynamic_index_in_dim(%iterArg_132, %iterArg_140) : (tensor<2x32x4x8xf32>, tensor<i32>) -> tensor<32x4x8xf32>
      %433 = func.call @dynamic_index_in_dim_2(%iterArg_133, %iterArg_140) : (tensor<2x32xf32>, tensor<i32>) -> tensor<32xf32>
      %434 = func.call @dynamic_index_in_dim_2(%iterArg_134, %iterArg_140) : (tensor<2x32xf32>, tensor<i32>) -> tensor<32xf32>
      %435 = func.call @dynamic_index_in_dim_3(%iterArg_135, %iterArg_140) : (tensor<2x32x64xf32>, tensor<i32>) -> tensor<32x64xf32>
      %436 = func.call @dynamic_index_in_dim_4(%iterArg_136, %iterArg_140) : (tensor<2x64x32xf32>, tensor<i32>) -> tensor<64x32xf32>
      %437:2 = func.call @closed_call(%iterArg_137, %iterArg_138, %iterArg_139, %iterArg_141, %429, %430, %431, %432, %433, %434, %435, %436) : (tensor<bf16>, tensor<4x4x8x8xi1>, tensor<4x4x8x8xbf16>, tensor<4x8x32xbf16>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<64x32xf32>) -> (tensor<4x8x32xbf16>, tensor<4x8x32xbf16>)
      %438 = func.call @dynamic_update_index_in_dim(%iterArg_142, %437#1, %iterArg_140) : (tensor<2x4x8x32xbf16>, tensor<4x8x32xbf16>, tensor<i32>) -> tensor<2x4x8x32xbf16>
      %c_143 = stablehlo.constant dense<1> : tensor<i32>
      %439 = stablehlo.add %iterArg_140, %c_143 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_130, %iterArg_131, %iterArg_132, %iterArg_133, %iterArg_134, %iterArg_135, %iterArg_136, %iterArg_137, %iterArg_138, %iterArg_139, %439, %437#0, %438 : tensor<2x32x4x8xf32>, tensor<2x4x8x32xf32>, tensor<2x32x4x8xf32>, tensor<2x32x4x8xf32>, tensor<2x32xf32>, tensor<2x32xf32>, tensor<2x32x64xf32>, tensor<2x64x32xf32>, tensor<bf16>, tensor<4x4x8x8xi1>, tensor<4x4x8x8xbf16>, tensor<i32>, tensor<4x8x32xbf16>, tensor<2x4x8x32xbf16>
    }
    %17 = stablehlo.convert %16#12 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %18 = chlo.square %17 : tensor<4x8x32xf32> -> tensor<4x8x32xf32>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x8x32xf32>
    %20 = stablehlo.multiply %19, %17 : tensor<4x8x32xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %21 = stablehlo.reduce(%17 init: %cst_3) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_4 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %23 = stablehlo.divide %21, %22 : tensor<4x8xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.reduce(%18 init: %cst_5) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_6 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %26 = stablehlo.divide %24, %25 : tensor<4x8xf32>
    %27 = chlo.square %23 : tensor<4x8xf32> -> tensor<4x8xf32>
    %cst_7 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %29 = stablehlo.multiply %28, %23 : tensor<4x8xf32>
    %30 = stablehlo.subtract %26, %27 : tensor<4x8xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %32 = stablehlo.maximum %31, %30 : tensor<4x8xf32>
    %33 = stablehlo.compare EQ, %30, %32, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %36 = stablehlo.select %33, %34, %35 : tensor<4x8xi1>, tensor<4x8xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %38 = stablehlo.compare EQ, %37, %32, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_12 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_13 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %41 = stablehlo.select %38, %39, %40 : tensor<4x8xi1>, tensor<4x8xf32>
    %42 = stablehlo.divide %36, %41 : tensor<4x8xf32>
    %43 = stablehlo.broadcast_in_dim %23, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %44 = stablehlo.broadcast_in_dim %32, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %45 = stablehlo.convert %16#12 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %46 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %47 = stablehlo.subtract %45, %46 : tensor<4x8x32xf32>
    %cst_14 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %48 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %49 = stablehlo.add %44, %48 : tensor<4x8x1xf32>
    %50 = stablehlo.rsqrt %49 : tensor<4x8x1xf32>
    %51 = stablehlo.divide %50, %49 : tensor<4x8x1xf32>
    %cst_15 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %52 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %53 = stablehlo.multiply %52, %51 : tensor<4x8x1xf32>
    %54 = stablehlo.reshape %arg9 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %55 = stablehlo.broadcast_in_dim %50, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %56 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %57 = stablehlo.multiply %55, %56 : tensor<4x8x32xf32>
    %58 = stablehlo.multiply %47, %57 : tensor<4x8x32xf32>
    %59 = stablehlo.convert %58 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
    %60 = stablehlo.convert %59 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %61 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %62 = stablehlo.dot_general %60, %61, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %63 = stablehlo.slice %arg31 [0:4, 1:9] : (tensor<4x9xi32>) -> tensor<4x8xi32>
    %64 = stablehlo.broadcast_in_dim %63, dims = [0, 1] : (tensor<4x8xi32>) -> tensor<4x8x1xi32>
    %65:2 = call @take_along_axis(%62, %64) : (tensor<4x8x64xf32>, tensor<4x8x1xi32>) -> (tensor<4x8x1xf32>, tensor<4x8x1x1xi32>)
    %c_16 = stablehlo.constant dense<0> : tensor<i32>
    %66:2 = call @_take_6(%65#0, %c_16) : (tensor<4x8x1xf32>, tensor<i32>) -> (tensor<4x8xf32>, tensor<1xi32>)
    %cst_17 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %67 = stablehlo.reduce(%62 init: %cst_17) applies stablehlo.maximum across dimensions = [2] : (tensor<4x8x64xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_18 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %68 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %69 = stablehlo.maximum %68, %67 : tensor<4x8xf32>
    %70 = stablehlo.is_finite %69 : (tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %71 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %72 = stablehlo.select %70, %69, %71 : tensor<4x8xi1>, tensor<4x8xf32>
    %73 = stablehlo.broadcast_in_dim %72, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %74 = stablehlo.broadcast_in_dim %73, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x64xf32>
    %75 = stablehlo.subtract %62, %74 : tensor<4x8x64xf32>
    %76 = stablehlo.exponential %75 : tensor<4x8x64xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %77 = stablehlo.reduce(%76 init: %cst_20) applies stablehlo.add across dimensions = [2] : (tensor<4x8x64xf32>, tensor<f32>) -> tensor<4x8xf32>
    %78 = stablehlo.abs %77 : tensor<4x8xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %79 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %80 = stablehlo.compare GE, %77, %79, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %81 = stablehlo.log %78 : tensor<4x8xf32>
    %82 = stablehlo.add %81, %72 : tensor<4x8xf32>
    %83 = stablehlo.subtract %82, %66#0 : tensor<4x8xf32>
    %cst_22 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %84 = stablehlo.reduce(%83 init: %cst_22) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32>
    %cst_23 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %85 = stablehlo.divide %84, %cst_23 : tensor<f32>
    %cst_24 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_25 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %86 = stablehlo.divide %cst_24, %cst_25 : tensor<f32>
    %87 = stablehlo.broadcast_in_dim %86, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %88 = stablehlo.negate %87 : tensor<4x8xf32>
    %89 = stablehlo.divide %87, %78 : tensor<4x8xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %90 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %91 = stablehlo.select %80, %90, %89 : tensor<4x8xi1>, tensor<4x8xf32>
    %92 = stablehlo.select %80, %89, %90 : tensor<4x8xi1>, tensor<4x8xf32>
    %93 = stablehlo.negate %91 : tensor<4x8xf32>
    %94 = stablehlo.add %92, %93 : tensor<4x8xf32>
    %95 = stablehlo.broadcast_in_dim %94, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x64xf32>
    %96 = stablehlo.multiply %95, %76 : tensor<4x8x64xf32>
    %97 = call @_take_8(%66#1, %88) : (tensor<1xi32>, tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %98 = call @take_along_axis_9(%65#1, %97) : (tensor<4x8x1x1xi32>, tensor<4x8x1xf32>) -> tensor<4x8x64xf32>
    %99 = stablehlo.add %96, %98 : tensor<4x8x64xf32>
    %100 = stablehlo.dot_general %99, %60, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x64xf32>, tensor<4x8x32xf32>) -> tensor<64x32xf32>
    %101 = stablehlo.transpose %100, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %102 = stablehlo.dot_general %99, %61, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x64xf32>, tensor<32x64xf32>) -> tensor<4x8x32xf32>
    %103 = stablehlo.transpose %101, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %104 = stablehlo.convert %102 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
    %105 = stablehlo.convert %104 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %106 = stablehlo.multiply %47, %105 : tensor<4x8x32xf32>
    %107 = stablehlo.multiply %105, %57 : tensor<4x8x32xf32>
    %108 = stablehlo.broadcast_in_dim %50, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %109 = stablehlo.multiply %108, %106 : tensor<4x8x32xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %110 = stablehlo.reduce(%109 init: %cst_27) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %111 = stablehlo.reshape %110 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %112 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %113 = stablehlo.multiply %106, %112 : tensor<4x8x32xf32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %114 = stablehlo.reduce(%113 init: %cst_28) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %115 = stablehlo.reshape %114 : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %116 = stablehlo.reshape %111 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %117 = stablehlo.multiply %115, %53 : tensor<4x8x1xf32>
    %118 = stablehlo.negate %107 : tensor<4x8x32xf32>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %119 = stablehlo.reduce(%118 init: %cst_29) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %120 = stablehlo.reshape %119 : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %121 = stablehlo.convert %107 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %122 = stablehlo.reduce(%117 init: %cst_30) applies stablehlo.add across dimensions = [2] : (tensor<4x8x1xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %123 = stablehlo.reduce(%120 init: %cst_31) applies stablehlo.add across dimensions = [2] : (tensor<4x8x1xf32>, tensor<f32>) -> tensor<4x8xf32>
    %124 = stablehlo.multiply %122, %42 : tensor<4x8xf32>
    %125 = stablehlo.negate %124 : tensor<4x8xf32>
    %126 = stablehlo.multiply %125, %29 : tensor<4x8xf32>
    %127 = stablehlo.add %123, %126 : tensor<4x8xf32>
    %cst_32 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %128 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %129 = stablehlo.divide %124, %128 : tensor<4x8xf32>
    %130 = stablehlo.broadcast_in_dim %129, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
    %cst_33 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %131 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %132 = stablehlo.divide %127, %131 : tensor<4x8xf32>
    %133 = stablehlo.broadcast_in_dim %132, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
    %134 = stablehlo.multiply %130, %20 : tensor<4x8x32xf32>
    %135 = stablehlo.add %133, %134 : tensor<4x8x32xf32>
    %136 = stablehlo.convert %135 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
    %137 = stablehlo.add %121, %136 : tensor<4x8x32xbf16>
    %cst_34 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %138 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %cst_35 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %139 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<2x4x8x32xf32>
    %cst_36 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %140 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %141 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %142 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %cst_39 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %143 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %cst_40 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %144 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<2x32x64xf32>
    %cst_41 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %145 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f32>) -> tensor<2x64x32xf32>
    %c_42 = stablehlo.constant dense<0> : tensor<i32>
    %146:19 = stablehlo.while(%iterArg = %arg1, %iterArg_130 = %arg2, %iterArg_131 = %arg3, %iterArg_132 = %arg4, %iterArg_133 = %arg5, %iterArg_134 = %arg6, %iterArg_135 = %arg7, %iterArg_136 = %arg8, %iterArg_137 = %16#13, %iterArg_138 = %c_42, %iterArg_139 = %137, %iterArg_140 = %138, %iterArg_141 = %139, %iterArg_142 = %140, %iterArg_143 = %141, %iterArg_144 = %142, %iterArg_145 = %143, %iterArg_146 = %144, %iterArg_147 = %145) : tensor<2x32x4x8xf32>, tensor<2x4x8x32xf32>, tensor<2x32x4x8xf32>, tensor<2x32x4x8xf32>, tensor<2x32xf32>, tensor<2x32xf32>, tensor<2x32x64xf32>, tensor<2x64x32xf32>, tensor<2x4x8x32xbf16>, tensor<i32>, tensor<4x8x32xbf16>, tensor<2x32x4x8xf32>, tensor<2x4x8x32xf32>, tensor<2x32x4x8xf32>, tensor<2x32x4x8xf32>, tensor<2x32xf32>, tensor<2x32xf32>, tensor<2x32x64xf32>, tensor<2x64x32xf32>
    cond {
      %c_148 = stablehlo.constant dense<2> : tensor<i32>
      %429 = stablehlo.compare LT, %iterArg_138, %c_148, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %429 : tensor<i1>
    } do {
      %c_148 = stablehlo.constant dense<2> : tensor<i32>
      %429 = stablehlo.subtract %c_148, %iterArg_138 : tensor<i32>
      %c_149 = stablehlo.constant dense<1> : tensor<i32>
      %430 = stablehlo.subtract %429, %c_149 : tensor<i32>
      %431 = func.call @dynamic_index_in_dim(%iterArg, %430) : (tensor<2x32x4x8xf32>, tensor<i32>) -> tensor<32x4x8xf32>
      %432 = func.call @dynamic_index_in_dim_1(%iterArg_130, %430) : (tensor<2x4x8x32xf32>, tensor<i32>) -> tensor<4x8x32xf32>
      %433 = func.call @dynamic_index_in_dim(%iterArg_131, %430) : (tensor<2x32x4x8xf32>, tensor<i32>) -> tensor<32x4x8xf32>
      %434 = func.call @dynamic_index_in_dim(%iterArg_132, %430) : (tensor<2x32x4x8xf32>, tensor<i32>) -> tensor<32x4x8xf32>
      %435 = func.call @dynamic_index_in_dim_2(%iterArg_133, %430) : (tensor<2x32xf32>, tensor<i32>) -> tensor<32xf32>
      %436 = func.call @dynamic_index_in_dim_2(%iterArg_134, %430) : (tensor<2x32xf32>, tensor<i32>) -> tensor<32xf32>
      %437 = func.call @dynamic_index_in_dim_3(%iterArg_135, %430) : (tensor<2x32x64xf32>, tensor<i32>) -> tensor<32x64xf32>
      %438 = func.call @dynamic_index_in_dim_4(%iterArg_136, %430) : (tensor<2x64x32xf32>, tensor<i32>) -> tensor<64x32xf32>
      %439 = func.call @dynamic_index_in_dim_10(%iterArg_137, %430) : (tensor<2x4x8x32xbf16>, tensor<i32>) -> tensor<4x8x32xbf16>
      %440:9 = func.call @closed_call_11(%iterArg_139, %431, %432, %433, %434, %435, %436, %437, %438, %439) : (tensor<4x8x32xbf16>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<4x8x32xbf16>) -> (tensor<4x8x32xbf16>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<64x32xf32>)
      %441 = func.call @dynamic_update_index_in_dim_14(%iterArg_140, %440#1, %430) : (tensor<2x32x4x8xf32>, tensor<32x4x8xf32>, tensor<i32>) -> tensor<2x32x4x8xf32>
      %442 = func.call @dynamic_update_index_in_dim_15(%iterArg_141, %440#2, %430) : (tensor<2x4x8x32xf32>, tensor<4x8x32xf32>, tensor<i32>) -> tensor<2x4x8x32xf32>
      %443 = func.call @dynamic_update_index_in_dim_14(%iterArg_142, %440#3, %430) : (tensor<2x32x4x8xf32>, tensor<32x4x8xf32>, tensor<i32>) -> tensor<2x32x4x8xf32>
      %444 = func.call @dynamic_update_index_in_dim_14(%iterArg_143, %440#4, %430) : (tensor<2x32x4x8xf32>, tensor<32x4x8xf32>, tensor<i32>) -> tensor<2x32x4x8xf32>
      %445 = func.call @dynamic_update_index_in_dim_16(%iterArg_144, %440#5, %430) : (tensor<2x32xf32>, tensor<32xf32>, tensor<i32>) -> tensor<2x32xf32>
      %446 = func.call @dynamic_update_index_in_dim_16(%iterArg_145, %440#6, %430) : (tensor<2x32xf32>, tensor<32xf32>, tensor<i32>) -> tensor<2x32xf32>
      %447 = func.call @dynamic_update_index_in_dim_17(%iterArg_146, %440#7, %430) : (tensor<2x32x64xf32>, tensor<32x64xf32>, tensor<i32>) -> tensor<2x32x64xf32>
      %448 = func.call @dynamic_update_index_in_dim_18(%iterArg_147, %440#8, %430) : (tensor<2x64x32xf32>, tensor<64x32xf32>, tensor<i32>) -> tensor<2x64x32xf32>
      %c_150 = stablehlo.constant dense<1> : tensor<i32>
      %449 = stablehlo.add %iterArg_138, %c_150 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_130, %iterArg_131, %iterArg_132, %iterArg_133, %iterArg_134, %iterArg_135, %iterArg_136, %iterArg_137, %449, %440#0, %441, %442, %443, %444, %445, %446, %447, %448 : tensor<2x32x4x8xf32>, tensor<2x4x8x32xf32>, tensor<2x32x4x8xf32>, tensor<2x32x4x8xf32>, tensor<2x32xf32>, tensor<2x32xf32>, tensor<2x32x64xf32>, tensor<2x64x32xf32>, tensor<2x4x8x32xbf16>, tensor<i32>, tensor<4x8x32xbf16>, tensor<2x32x4x8xf32>, tensor<2x4x8x32xf32>, tensor<2x32x4x8xf32>, tensor<2x32x4x8xf32>, tensor<2x32xf32>, tensor<2x32xf32>, tensor<2x32x64xf32>, tensor<2x64x32xf32>
    }
    %147 = stablehlo.convert %146#10 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %148 = call @_take_19(%1#1, %147) : (tensor<4x8x1xi32>, tensor<4x8x32xf32>) -> tensor<64x32xf32>
    %149 = stablehlo.add %103, %148 : tensor<64x32xf32>
    %cst_43 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %150 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %151 = stablehlo.multiply %150, %149 : tensor<64x32xf32>
    %cst_44 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %152 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %153 = stablehlo.multiply %152, %arg11 : tensor<64x32xf32>
    %154 = stablehlo.add %151, %153 : tensor<64x32xf32>
    %cst_45 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %155 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %156 = stablehlo.multiply %155, %146#11 : tensor<2x32x4x8xf32>
    %cst_46 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %157 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %158 = stablehlo.multiply %157, %arg12 : tensor<2x32x4x8xf32>
    %159 = stablehlo.add %156, %158 : tensor<2x32x4x8xf32>
    %cst_47 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %160 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<2x4x8x32xf32>
    %161 = stablehlo.multiply %160, %146#12 : tensor<2x4x8x32xf32>
    %cst_48 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %162 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<2x4x8x32xf32>
    %163 = stablehlo.multiply %162, %arg13 : tensor<2x4x8x32xf32>
    %164 = stablehlo.add %161, %163 : tensor<2x4x8x32xf32>
    %cst_49 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %165 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %166 = stablehlo.multiply %165, %146#13 : tensor<2x32x4x8xf32>
    %cst_50 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %167 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %168 = stablehlo.multiply %167, %arg14 : tensor<2x32x4x8xf32>
    %169 = stablehlo.add %166, %168 : tensor<2x32x4x8xf32>
    %cst_51 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %170 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %171 = stablehlo.multiply %170, %146#14 : tensor<2x32x4x8xf32>
    %cst_52 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %172 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %173 = stablehlo.multiply %172, %arg15 : tensor<2x32x4x8xf32>
    %174 = stablehlo.add %171, %173 : tensor<2x32x4x8xf32>
    %cst_53 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %175 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %176 = stablehlo.multiply %175, %146#15 : tensor<2x32xf32>
    %cst_54 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %177 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %178 = stablehlo.multiply %177, %arg16 : tensor<2x32xf32>
    %179 = stablehlo.add %176, %178 : tensor<2x32xf32>
    %cst_55 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %180 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %181 = stablehlo.multiply %180, %146#16 : tensor<2x32xf32>
    %cst_56 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %182 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %183 = stablehlo.multiply %182, %arg17 : tensor<2x32xf32>
    %184 = stablehlo.add %181, %183 : tensor<2x32xf32>
    %cst_57 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %185 = stablehlo.broadcast_in_dim %cst_57, dims = [] : (tensor<f32>) -> tensor<2x32x64xf32>
    %186 = stablehlo.multiply %185, %146#17 : tensor<2x32x64xf32>
    %cst_58 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %187 = stablehlo.broadcast_in_dim %cst_58, dims = [] : (tensor<f32>) -> tensor<2x32x64xf32>
    %188 = stablehlo.multiply %187, %arg18 : tensor<2x32x64xf32>
    %189 = stablehlo.add %186, %188 : tensor<2x32x64xf32>
    %cst_59 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %190 = stablehlo.broadcast_in_dim %cst_59, dims = [] : (tensor<f32>) -> tensor<2x64x32xf32>
    %191 = stablehlo.multiply %190, %146#18 : tensor<2x64x32xf32>
    %cst_60 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %192 = stablehlo.broadcast_in_dim %cst_60, dims = [] : (tensor<f32>) -> tensor<2x64x32xf32>
    %193 = stablehlo.multiply %192, %arg19 : tensor<2x64x32xf32>
    %194 = stablehlo.add %191, %193 : tensor<2x64x32xf32>
    %cst_61 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %195 = stablehlo.broadcast_in_dim %cst_61, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %196 = stablehlo.multiply %195, %116 : tensor<32xf32>
    %cst_62 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %197 = stablehlo.broadcast_in_dim %cst_62, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %198 = stablehlo.multiply %197, %arg20 : tensor<32xf32>
    %199 = stablehlo.add %196, %198 : tensor<32xf32>
    %200 = stablehlo.multiply %149, %149 : tensor<64x32xf32>
    %cst_63 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %201 = stablehlo.broadcast_in_dim %cst_63, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %202 = stablehlo.multiply %201, %200 : tensor<64x32xf32>
    %cst_64 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %203 = stablehlo.broadcast_in_dim %cst_64, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %204 = stablehlo.multiply %203, %arg21 : tensor<64x32xf32>
    %205 = stablehlo.add %202, %204 : tensor<64x32xf32>
    %206 = stablehlo.multiply %146#11, %146#11 : tensor<2x32x4x8xf32>
    %cst_65 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %207 = stablehlo.broadcast_in_dim %cst_65, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %208 = stablehlo.multiply %207, %206 : tensor<2x32x4x8xf32>
    %cst_66 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %209 = stablehlo.broadcast_in_dim %cst_66, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %210 = stablehlo.multiply %209, %arg22 : tensor<2x32x4x8xf32>
    %211 = stablehlo.add %208, %210 : tensor<2x32x4x8xf32>
    %212 = stablehlo.multiply %146#12, %146#12 : tensor<2x4x8x32xf32>
    %cst_67 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %213 = stablehlo.broadcast_in_dim %cst_67, dims = [] : (tensor<f32>) -> tensor<2x4x8x32xf32>
    %214 = stablehlo.multiply %213, %212 : tensor<2x4x8x32xf32>
    %cst_68 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %215 = stablehlo.broadcast_in_dim %cst_68, dims = [] : (tensor<f32>) -> tensor<2x4x8x32xf32>
    %216 = stablehlo.multiply %215, %arg23 : tensor<2x4x8x32xf32>
    %217 = stablehlo.add %214, %216 : tensor<2x4x8x32xf32>
    %218 = stablehlo.multiply %146#13, %146#13 : tensor<2x32x4x8xf32>
    %cst_69 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %219 = stablehlo.broadcast_in_dim %cst_69, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %220 = stablehlo.multiply %219, %218 : tensor<2x32x4x8xf32>
    %cst_70 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %221 = stablehlo.broadcast_in_dim %cst_70, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %222 = stablehlo.multiply %221, %arg24 : tensor<2x32x4x8xf32>
    %223 = stablehlo.add %220, %222 : tensor<2x32x4x8xf32>
    %224 = stablehlo.multiply %146#14, %146#14 : tensor<2x32x4x8xf32>
    %cst_71 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %225 = stablehlo.broadcast_in_dim %cst_71, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %226 = stablehlo.multiply %225, %224 : tensor<2x32x4x8xf32>
    %cst_72 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %227 = stablehlo.broadcast_in_dim %cst_72, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %228 = stablehlo.multiply %227, %arg25 : tensor<2x32x4x8xf32>
    %229 = stablehlo.add %226, %228 : tensor<2x32x4x8xf32>
    %230 = stablehlo.multiply %146#15, %146#15 : tensor<2x32xf32>
    %cst_73 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %231 = stablehlo.broadcast_in_dim %cst_73, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %232 = stablehlo.multiply %231, %230 : tensor<2x32xf32>
    %cst_74 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %233 = stablehlo.broadcast_in_dim %cst_74, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %234 = stablehlo.multiply %233, %arg26 : tensor<2x32xf32>
    %235 = stablehlo.add %232, %234 : tensor<2x32xf32>
    %236 = stablehlo.multiply %146#16, %146#16 : tensor<2x32xf32>
    %cst_75 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %237 = stablehlo.broadcast_in_dim %cst_75, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %238 = stablehlo.multiply %237, %236 : tensor<2x32xf32>
    %cst_76 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %239 = stablehlo.broadcast_in_dim %cst_76, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %240 = stablehlo.multiply %239, %arg27 : tensor<2x32xf32>
    %241 = stablehlo.add %238, %240 : tensor<2x32xf32>
    %242 = stablehlo.multiply %146#17, %146#17 : tensor<2x32x64xf32>
    %cst_77 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %243 = stablehlo.broadcast_in_dim %cst_77, dims = [] : (tensor<f32>) -> tensor<2x32x64xf32>
    %244 = stablehlo.multiply %243, %242 : tensor<2x32x64xf32>
    %cst_78 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %245 = stablehlo.broadcast_in_dim %cst_78, dims = [] : (tensor<f32>) -> tensor<2x32x64xf32>
    %246 = stablehlo.multiply %245, %arg28 : tensor<2x32x64xf32>
    %247 = stablehlo.add %244, %246 : tensor<2x32x64xf32>
    %248 = stablehlo.multiply %146#18, %146#18 : tensor<2x64x32xf32>
    %cst_79 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %249 = stablehlo.broadcast_in_dim %cst_79, dims = [] : (tensor<f32>) -> tensor<2x64x32xf32>
    %250 = stablehlo.multiply %249, %248 : tensor<2x64x32xf32>
    %cst_80 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %251 = stablehlo.broadcast_in_dim %cst_80, dims = [] : (tensor<f32>) -> tensor<2x64x32xf32>
    %252 = stablehlo.multiply %251, %arg29 : tensor<2x64x32xf32>
    %253 = stablehlo.add %250, %252 : tensor<2x64x32xf32>
    %254 = stablehlo.multiply %116, %116 : tensor<32xf32>
    %cst_81 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %255 = stablehlo.broadcast_in_dim %cst_81, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %256 = stablehlo.multiply %255, %254 : tensor<32xf32>
    %cst_82 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %257 = stablehlo.broadcast_in_dim %cst_82, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %258 = stablehlo.multiply %257, %arg30 : tensor<32xf32>
    %259 = stablehlo.add %256, %258 : tensor<32xf32>
    %c_83 = stablehlo.constant dense<2147483647> : tensor<i32>
    %260 = stablehlo.compare LT, %arg10, %c_83, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_84 = stablehlo.constant dense<1> : tensor<i32>
    %261 = stablehlo.add %arg10, %c_84 : tensor<i32>
    %c_85 = stablehlo.constant dense<2147483647> : tensor<i32>
    %262 = call @_where_20(%260, %261, %c_85) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %cst_86 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %263 = stablehlo.convert %262 : (tensor<i32>) -> tensor<f32>
    %264 = stablehlo.power %cst_86, %263 : tensor<f32>
    %cst_87 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %265 = stablehlo.subtract %cst_87, %264 : tensor<f32>
    %266 = stablehlo.broadcast_in_dim %265, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %267 = stablehlo.divide %154, %266 : tensor<64x32xf32>
    %268 = stablehlo.broadcast_in_dim %265, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %269 = stablehlo.divide %159, %268 : tensor<2x32x4x8xf32>
    %270 = stablehlo.broadcast_in_dim %265, dims = [] : (tensor<f32>) -> tensor<2x4x8x32xf32>
    %271 = stablehlo.divide %164, %270 : tensor<2x4x8x32xf32>
    %272 = stablehlo.broadcast_in_dim %265, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %273 = stablehlo.divide %169, %272 : tensor<2x32x4x8xf32>
    %274 = stablehlo.broadcast_in_dim %265, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %275 = stablehlo.divide %174, %274 : tensor<2x32x4x8xf32>
    %276 = stablehlo.broadcast_in_dim %265, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %277 = stablehlo.divide %179, %276 : tensor<2x32xf32>
    %278 = stablehlo.broadcast_in_dim %265, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %279 = stablehlo.divide %184, %278 : tensor<2x32xf32>
    %280 = stablehlo.broadcast_in_dim %265, dims = [] : (tensor<f32>) -> tensor<2x32x64xf32>
    %281 = stablehlo.divide %189, %280 : tensor<2x32x64xf32>
    %282 = stablehlo.broadcast_in_dim %265, dims = [] : (tensor<f32>) -> tensor<2x64x32xf32>
    %283 = stablehlo.divide %194, %282 : tensor<2x64x32xf32>
    %284 = stablehlo.broadcast_in_dim %265, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %285 = stablehlo.divide %199, %284 : tensor<32xf32>
    %cst_88 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %286 = stablehlo.convert %262 : (tensor<i32>) -> tensor<f32>
    %287 = stablehlo.power %cst_88, %286 : tensor<f32>
    %cst_89 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %288 = stablehlo.subtract %cst_89, %287 : tensor<f32>
    %289 = stablehlo.broadcast_in_dim %288, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %290 = stablehlo.divide %205, %289 : tensor<64x32xf32>
    %291 = stablehlo.broadcast_in_dim %288, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %292 = stablehlo.divide %211, %291 : tensor<2x32x4x8xf32>
    %293 = stablehlo.broadcast_in_dim %288, dims = [] : (tensor<f32>) -> tensor<2x4x8x32xf32>
    %294 = stablehlo.divide %217, %293 : tensor<2x4x8x32xf32>
    %295 = stablehlo.broadcast_in_dim %288, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %296 = stablehlo.divide %223, %295 : tensor<2x32x4x8xf32>
    %297 = stablehlo.broadcast_in_dim %288, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %298 = stablehlo.divide %229, %297 : tensor<2x32x4x8xf32>
    %299 = stablehlo.broadcast_in_dim %288, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %300 = stablehlo.divide %235, %299 : tensor<2x32xf32>
    %301 = stablehlo.broadcast_in_dim %288, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %302 = stablehlo.divide %241, %301 : tensor<2x32xf32>
    %303 = stablehlo.broadcast_in_dim %288, dims = [] : (tensor<f32>) -> tensor<2x32x64xf32>
    %304 = stablehlo.divide %247, %303 : tensor<2x32x64xf32>
    %305 = stablehlo.broadcast_in_dim %288, dims = [] : (tensor<f32>) -> tensor<2x64x32xf32>
    %306 = stablehlo.divide %253, %305 : tensor<2x64x32xf32>
    %307 = stablehlo.broadcast_in_dim %288, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %308 = stablehlo.divide %259, %307 : tensor<32xf32>
    %cst_90 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %309 = stablehlo.broadcast_in_dim %cst_90, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %310 = stablehlo.add %290, %309 : tensor<64x32xf32>
    %311 = stablehlo.sqrt %310 : tensor<64x32xf32>
    %cst_91 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %312 = stablehlo.broadcast_in_dim %cst_91, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %313 = stablehlo.add %311, %312 : tensor<64x32xf32>
    %314 = stablehlo.divide %267, %313 : tensor<64x32xf32>
    %cst_92 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %315 = stablehlo.broadcast_in_dim %cst_92, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %316 = stablehlo.add %292, %315 : tensor<2x32x4x8xf32>
    %317 = stablehlo.sqrt %316 : tensor<2x32x4x8xf32>
    %cst_93 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %318 = stablehlo.broadcast_in_dim %cst_93, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %319 = stablehlo.add %317, %318 : tensor<2x32x4x8xf32>
    %320 = stablehlo.divide %269, %319 : tensor<2x32x4x8xf32>
    %cst_94 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %321 = stablehlo.broadcast_in_dim %cst_94, dims = [] : (tensor<f32>) -> tensor<2x4x8x32xf32>
    %322 = stablehlo.add %294, %321 : tensor<2x4x8x32xf32>
    %323 = stablehlo.sqrt %322 : tensor<2x4x8x32xf32>
    %cst_95 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %324 = stablehlo.broadcast_in_dim %cst_95, dims = [] : (tensor<f32>) -> tensor<2x4x8x32xf32>
    %325 = stablehlo.add %323, %324 : tensor<2x4x8x32xf32>
    %326 = stablehlo.divide %271, %325 : tensor<2x4x8x32xf32>
    %cst_96 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %327 = stablehlo.broadcast_in_dim %cst_96, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %328 = stablehlo.add %296, %327 : tensor<2x32x4x8xf32>
    %329 = stablehlo.sqrt %328 : tensor<2x32x4x8xf32>
    %cst_97 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %330 = stablehlo.broadcast_in_dim %cst_97, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %331 = stablehlo.add %329, %330 : tensor<2x32x4x8xf32>
    %332 = stablehlo.divide %273, %331 : tensor<2x32x4x8xf32>
    %cst_98 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %333 = stablehlo.broadcast_in_dim %cst_98, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %334 = stablehlo.add %298, %333 : tensor<2x32x4x8xf32>
    %335 = stablehlo.sqrt %334 : tensor<2x32x4x8xf32>
    %cst_99 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %336 = stablehlo.broadcast_in_dim %cst_99, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %337 = stablehlo.add %335, %336 : tensor<2x32x4x8xf32>
    %338 = stablehlo.divide %275, %337 : tensor<2x32x4x8xf32>
    %cst_100 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %339 = stablehlo.broadcast_in_dim %cst_100, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %340 = stablehlo.add %300, %339 : tensor<2x32xf32>
    %341 = stablehlo.sqrt %340 : tensor<2x32xf32>
    %cst_101 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %342 = stablehlo.broadcast_in_dim %cst_101, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %343 = stablehlo.add %341, %342 : tensor<2x32xf32>
    %344 = stablehlo.divide %277, %343 : tensor<2x32xf32>
    %cst_102 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %345 = stablehlo.broadcast_in_dim %cst_102, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %346 = stablehlo.add %302, %345 : tensor<2x32xf32>
    %347 = stablehlo.sqrt %346 : tensor<2x32xf32>
    %cst_103 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %348 = stablehlo.broadcast_in_dim %cst_103, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %349 = stablehlo.add %347, %348 : tensor<2x32xf32>
    %350 = stablehlo.divide %279, %349 : tensor<2x32xf32>
    %cst_104 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %351 = stablehlo.broadcast_in_dim %cst_104, dims = [] : (tensor<f32>) -> tensor<2x32x64xf32>
    %352 = stablehlo.add %304, %351 : tensor<2x32x64xf32>
    %353 = stablehlo.sqrt %352 : tensor<2x32x64xf32>
    %cst_105 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %354 = stablehlo.broadcast_in_dim %cst_105, dims = [] : (tensor<f32>) -> tensor<2x32x64xf32>
    %355 = stablehlo.add %353, %354 : tensor<2x32x64xf32>
    %356 = stablehlo.divide %281, %355 : tensor<2x32x64xf32>
    %cst_106 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %357 = stablehlo.broadcast_in_dim %cst_106, dims = [] : (tensor<f32>) -> tensor<2x64x32xf32>
    %358 = stablehlo.add %306, %357 : tensor<2x64x32xf32>
    %359 = stablehlo.sqrt %358 : tensor<2x64x32xf32>
    %cst_107 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %360 = stablehlo.broadcast_in_dim %cst_107, dims = [] : (tensor<f32>) -> tensor<2x64x32xf32>
    %361 = stablehlo.add %359, %360 : tensor<2x64x32xf32>
    %362 = stablehlo.divide %283, %361 : tensor<2x64x32xf32>
    %cst_108 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %363 = stablehlo.broadcast_in_dim %cst_108, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %364 = stablehlo.add %308, %363 : tensor<32xf32>
    %365 = stablehlo.sqrt %364 : tensor<32xf32>
    %cst_109 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %366 = stablehlo.broadcast_in_dim %cst_109, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %367 = stablehlo.add %365, %366 : tensor<32xf32>
    %368 = stablehlo.divide %285, %367 : tensor<32xf32>
    %cst_110 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %369 = stablehlo.broadcast_in_dim %cst_110, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %370 = stablehlo.multiply %369, %arg0 : tensor<64x32xf32>
    %371 = stablehlo.add %314, %370 : tensor<64x32xf32>
    %cst_111 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %372 = stablehlo.broadcast_in_dim %cst_111, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %373 = stablehlo.multiply %372, %arg1 : tensor<2x32x4x8xf32>
    %374 = stablehlo.add %320, %373 : tensor<2x32x4x8xf32>
    %cst_112 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %375 = stablehlo.broadcast_in_dim %cst_112, dims = [] : (tensor<f32>) -> tensor<2x4x8x32xf32>
    %376 = stablehlo.multiply %375, %arg2 : tensor<2x4x8x32xf32>
    %377 = stablehlo.add %326, %376 : tensor<2x4x8x32xf32>
    %cst_113 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %378 = stablehlo.broadcast_in_dim %cst_113, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %379 = stablehlo.multiply %378, %arg3 : tensor<2x32x4x8xf32>
    %380 = stablehlo.add %332, %379 : tensor<2x32x4x8xf32>
    %cst_114 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %381 = stablehlo.broadcast_in_dim %cst_114, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %382 = stablehlo.multiply %381, %arg4 : tensor<2x32x4x8xf32>
    %383 = stablehlo.add %338, %382 : tensor<2x32x4x8xf32>
    %cst_115 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %384 = stablehlo.broadcast_in_dim %cst_115, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %385 = stablehlo.multiply %384, %arg5 : tensor<2x32xf32>
    %386 = stablehlo.add %344, %385 : tensor<2x32xf32>
    %cst_116 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %387 = stablehlo.broadcast_in_dim %cst_116, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %388 = stablehlo.multiply %387, %arg6 : tensor<2x32xf32>
    %389 = stablehlo.add %350, %388 : tensor<2x32xf32>
    %cst_117 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %390 = stablehlo.broadcast_in_dim %cst_117, dims = [] : (tensor<f32>) -> tensor<2x32x64xf32>
    %391 = stablehlo.multiply %390, %arg7 : tensor<2x32x64xf32>
    %392 = stablehlo.add %356, %391 : tensor<2x32x64xf32>
    %cst_118 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %393 = stablehlo.broadcast_in_dim %cst_118, dims = [] : (tensor<f32>) -> tensor<2x64x32xf32>
    %394 = stablehlo.multiply %393, %arg8 : tensor<2x64x32xf32>
    %395 = stablehlo.add %362, %394 : tensor<2x64x32xf32>
    %cst_119 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %396 = stablehlo.broadcast_in_dim %cst_119, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %397 = stablehlo.multiply %396, %arg9 : tensor<32xf32>
    %398 = stablehlo.add %368, %397 : tensor<32xf32>
    %cst_120 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %399 = stablehlo.broadcast_in_dim %cst_120, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %400 = stablehlo.multiply %399, %371 : tensor<64x32xf32>
    %cst_121 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %401 = stablehlo.broadcast_in_dim %cst_121, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %402 = stablehlo.multiply %401, %374 : tensor<2x32x4x8xf32>
    %cst_122 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %403 = stablehlo.broadcast_in_dim %cst_122, dims = [] : (tensor<f32>) -> tensor<2x4x8x32xf32>
    %404 = stablehlo.multiply %403, %377 : tensor<2x4x8x32xf32>
    %cst_123 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %405 = stablehlo.broadcast_in_dim %cst_123, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %406 = stablehlo.multiply %405, %380 : tensor<2x32x4x8xf32>
    %cst_124 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %407 = stablehlo.broadcast_in_dim %cst_124, dims = [] : (tensor<f32>) -> tensor<2x32x4x8xf32>
    %408 = stablehlo.multiply %407, %383 : tensor<2x32x4x8xf32>
    %cst_125 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %409 = stablehlo.broadcast_in_dim %cst_125, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %410 = stablehlo.multiply %409, %386 : tensor<2x32xf32>
    %cst_126 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %411 = stablehlo.broadcast_in_dim %cst_126, dims = [] : (tensor<f32>) -> tensor<2x32xf32>
    %412 = stablehlo.multiply %411, %389 : tensor<2x32xf32>
    %cst_127 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %413 = stablehlo.broadcast_in_dim %cst_127, dims = [] : (tensor<f32>) -> tensor<2x32x64xf32>
    %414 = stablehlo.multiply %413, %392 : tensor<2x32x64xf32>
    %cst_128 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %415 = stablehlo.broadcast_in_dim %cst_128, dims = [] : (tensor<f32>) -> tensor<2x64x32xf32>
    %416 = stablehlo.multiply %415, %395 : tensor<2x64x32xf32>
    %cst_129 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %417 = stablehlo.broadcast_in_dim %cst_129, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %418 = stablehlo.multiply %417, %398 : tensor<32xf32>
    %419 = stablehlo.add %arg0, %400 : tensor<64x32xf32>
    %420 = stablehlo.add %arg1, %402 : tensor<2x32x4x8xf32>
    %421 = stablehlo.add %arg2, %404 : tensor<2x4x8x32xf32>
    %422 = stablehlo.add %arg3, %406 : tensor<2x32x4x8xf32>
    %423 = stablehlo.add %arg4, %408 : tensor<2x32x4x8xf32>
    %424 = stablehlo.add %arg5, %410 : tensor<2x32xf32>
    %425 = stablehlo.add %arg6, %412 : tensor<2x32xf32>
    %426 = stablehlo.add %arg7, %414 : tensor<2x32x64xf32>
    %427 = stablehlo.add %arg8, %416 : tensor<2x64x32xf32>
    %428 = stablehlo.add %arg9, %418 : tensor<32xf32>
    return %419, %420, %421, %422, %423, %424, %425, %426, %427, %428, %262, %154, %159, %164, %169, %174, %179, %184, %189, %194, %199, %205, %211, %217, %223, %229, %235, %241, %247, %253, %259, %85 : tensor<64x32xf32>, tensor<2x32x4x8xf32>, tensor<2x4x8x32xf32>, tensor<2x32x4x8xf32>, tensor<2x32x4x8xf32>, tensor<2x32xf32>, tensor<2x32xf32>, tensor<2x32x64xf32>, tensor<2x64x32xf32>, tensor<32xf32>, tensor<i32>, tensor<64x32xf32>, tensor<2x32x4x8xf32>, tensor<2x4x8x32xf32>, tensor<2x32x4x8xf32>, tensor<2x32x4x8xf32>, tensor<2x32xf32>, tensor<2x32xf32>, tensor<2x32x64xf32>, tensor<2x64x32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<2x32x4x8xf32>, tensor<2x4x8x32xf32>, tensor<2x32x4x8xf32>, tensor<2x32x4x8xf32>, tensor<2x32xf32>, tensor<2x32xf32>, tensor<2x32x64xf32>, tensor<2x64x32xf32>, tensor<32xf32>, tensor<f32>
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
  func.func private @_where_0(%arg0: tensor<4x1x8x8xf32>, %arg1: tensor<bf16>) -> (tensor<4x4x8x8xi1>, tensor<4x4x8x8xbf16>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x1x8x8xf32>
    %1 = stablehlo.compare NE, %arg0, %0, FLOAT : (tensor<4x1x8x8xf32>, tensor<4x1x8x8xf32>) -> tensor<4x1x8x8xi1>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<4x1x8x8xi1>) -> tensor<4x4x8x8xi1>
    %3 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<bf16>) -> tensor<4x4x8x8xbf16>
    return %2, %3 : tensor<4x4x8x8xi1>, tensor<4x4x8x8xbf16>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<2x32x4x8xf32>, %arg1: tensor<i32>) -> tensor<32x4x8xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 32, 4, 8] : (tensor<2x32x4x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x4x8xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x32x4x8xf32>) -> tensor<32x4x8xf32>
    return %1 : tensor<32x4x8xf32>
  }
  func.func private @dynamic_index_in_dim_1(%arg0: tensor<2x4x8x32xf32>, %arg1: tensor<i32>) -> tensor<4x8x32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 4, 8, 32] : (tensor<2x4x8x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x8x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4x8x32xf32>) -> tensor<4x8x32xf32>
    return %1 : tensor<4x8x32xf32>
  }
  func.func private @dynamic_index_in_dim_2(%arg0: tensor<2x32xf32>, %arg1: tensor<i32>) -> tensor<32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 32] : (tensor<2x32xf32>, tensor<i32>, tensor<i32>) -> tensor<1x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x32xf32>) -> tensor<32xf32>
    return %1 : tensor<32xf32>
  }
  func.func private @dynamic_index_in_dim_3(%arg0: tensor<2x32x64xf32>, %arg1: tensor<i32>) -> tensor<32x64xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 32, 64] : (tensor<2x32x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x64xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x32x64xf32>) -> tensor<32x64xf32>
    return %1 : tensor<32x64xf32>
  }
  func.func private @dynamic_index_in_dim_4(%arg0: tensor<2x64x32xf32>, %arg1: tensor<i32>) -> tensor<64x32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 64, 32] : (tensor<2x64x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x64x32xf32>) -> tensor<64x32xf32>
    return %1 : tensor<64x32xf32>
  }
  func.func private @closed_call(%arg0: tensor<bf16>, %arg1: tensor<4x4x8x8xi1>, %arg2: tensor<4x4x8x8xbf16>, %arg3: tensor<4x8x32xbf16>, %arg4: tensor<32x4x8xf32>, %arg5: tensor<4x8x32xf32>, %arg6: tensor<32x4x8xf32>, %arg7: tensor<32x4x8xf32>, %arg8: tensor<32xf32>, %arg9: tensor<32xf32>, %arg10: tensor<32x64xf32>, %arg11: tensor<64x32xf32>) -> (tensor<4x8x32xbf16>, tensor<4x8x32xbf16>) {
    %0 = stablehlo.convert %arg3 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %1 = chlo.square %0 : tensor<4x8x32xf32> -> tensor<4x8x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %4 = stablehlo.divide %2, %3 : tensor<4x8xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%1 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_2 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %7 = stablehlo.divide %5, %6 : tensor<4x8xf32>
    %8 = chlo.square %4 : tensor<4x8xf32> -> tensor<4x8xf32>
    %9 = stablehlo.subtract %7, %8 : tensor<4x8xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %11 = stablehlo.maximum %10, %9 : tensor<4x8xf32>
    %12 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %13 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %14 = stablehlo.convert %arg3 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %15 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %16 = stablehlo.subtract %14, %15 : tensor<4x8x32xf32>
    %cst_4 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %18 = stablehlo.add %13, %17 : tensor<4x8x1xf32>
    %19 = stablehlo.rsqrt %18 : tensor<4x8x1xf32>
    %20 = stablehlo.reshape %arg8 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %21 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %22 = stablehlo.broadcast_in_dim %20, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %23 = stablehlo.multiply %21, %22 : tensor<4x8x32xf32>
    %24 = stablehlo.multiply %16, %23 : tensor<4x8x32xf32>
    %25 = stablehlo.convert %24 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
    %26 = stablehlo.convert %arg6 : (tensor<32x4x8xf32>) -> tensor<32x4x8xbf16>
    %27 = stablehlo.dot_general %25, %26, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xbf16>, tensor<32x4x8xbf16>) -> tensor<4x8x4x8xbf16>
    %28 = stablehlo.convert %arg4 : (tensor<32x4x8xf32>) -> tensor<32x4x8xbf16>
    %29 = stablehlo.dot_general %25, %28, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xbf16>, tensor<32x4x8xbf16>) -> tensor<4x8x4x8xbf16>
    %30 = stablehlo.convert %arg7 : (tensor<32x4x8xf32>) -> tensor<32x4x8xbf16>
    %31 = stablehlo.dot_general %25, %30, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xbf16>, tensor<32x4x8xbf16>) -> tensor<4x8x4x8xbf16>
    %32 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<bf16>) -> tensor<4x8x4x8xbf16>
    %33 = stablehlo.divide %27, %32 : tensor<4x8x4x8xbf16>
    %34 = stablehlo.dot_general %33, %29, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xbf16>, tensor<4x8x4x8xbf16>) -> tensor<4x4x8x8xbf16>
    %35 = call @_where_5(%34, %arg1, %arg2) : (tensor<4x4x8x8xbf16>, tensor<4x4x8x8xi1>, tensor<4x4x8x8xbf16>) -> tensor<4x4x8x8xbf16>
    %cst_5 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %36 = stablehlo.reduce(%35 init: %cst_5) applies stablehlo.maximum across dimensions = [3] : (tensor<4x4x8x8xbf16>, tensor<bf16>) -> tensor<4x4x8xbf16>
    %cst_6 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %37 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<bf16>) -> tensor<4x4x8xbf16>
    %38 = stablehlo.maximum %37, %36 : tensor<4x4x8xbf16>
    %39 = stablehlo.broadcast_in_dim %38, dims = [0, 1, 2] : (tensor<4x4x8xbf16>) -> tensor<4x4x8x1xbf16>
    %40 = stablehlo.broadcast_in_dim %39, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xbf16>) -> tensor<4x4x8x8xbf16>
    %41 = stablehlo.subtract %35, %40 : tensor<4x4x8x8xbf16>
    %42 = stablehlo.exponential %41 : tensor<4x4x8x8xbf16>
    %43 = stablehlo.convert %42 : (tensor<4x4x8x8xbf16>) -> tensor<4x4x8x8xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %44 = stablehlo.reduce(%43 init: %cst_7) applies stablehlo.add across dimensions = [3] : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %45 = stablehlo.broadcast_in_dim %44, dims = [0, 1, 2] : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %46 = stablehlo.convert %45 : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x1xbf16>
    %47 = stablehlo.broadcast_in_dim %46, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xbf16>) -> tensor<4x4x8x8xbf16>
    %48 = stablehlo.divide %42, %47 : tensor<4x4x8x8xbf16>
    %49 = stablehlo.dot_general %31, %48, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xbf16>, tensor<4x4x8x8xbf16>) -> tensor<4x4x8x8xbf16>
    %50 = stablehlo.transpose %49, dims = [0, 3, 1, 2] : (tensor<4x4x8x8xbf16>) -> tensor<4x8x4x8xbf16>
    %51 = stablehlo.convert %arg5 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
    %52 = stablehlo.dot_general %50, %51, contracting_dims = [2, 3] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xbf16>, tensor<4x8x32xbf16>) -> tensor<4x8x32xbf16>
    %53 = stablehlo.add %arg3, %52 : tensor<4x8x32xbf16>
    %54 = stablehlo.convert %53 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %55 = chlo.square %54 : tensor<4x8x32xf32> -> tensor<4x8x32xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %56 = stablehlo.reduce(%54 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_9 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %57 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %58 = stablehlo.divide %56, %57 : tensor<4x8xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %59 = stablehlo.reduce(%55 init: %cst_10) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_11 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %60 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %61 = stablehlo.divide %59, %60 : tensor<4x8xf32>
    %62 = chlo.square %58 : tensor<4x8xf32> -> tensor<4x8xf32>
    %63 = stablehlo.subtract %61, %62 : tensor<4x8xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %64 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %65 = stablehlo.maximum %64, %63 : tensor<4x8xf32>
    %66 = stablehlo.broadcast_in_dim %58, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %67 = stablehlo.broadcast_in_dim %65, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %68 = stablehlo.convert %53 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %69 = stablehlo.broadcast_in_dim %66, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %70 = stablehlo.subtract %68, %69 : tensor<4x8x32xf32>
    %cst_13 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %71 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %72 = stablehlo.add %67, %71 : tensor<4x8x1xf32>
    %73 = stablehlo.rsqrt %72 : tensor<4x8x1xf32>
    %74 = stablehlo.reshape %arg9 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %75 = stablehlo.broadcast_in_dim %73, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %76 = stablehlo.broadcast_in_dim %74, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %77 = stablehlo.multiply %75, %76 : tensor<4x8x32xf32>
    %78 = stablehlo.multiply %70, %77 : tensor<4x8x32xf32>
    %79 = stablehlo.convert %78 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
    %80 = stablehlo.convert %arg10 : (tensor<32x64xf32>) -> tensor<32x64xbf16>
    %81 = stablehlo.dot_general %79, %80, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xbf16>, tensor<32x64xbf16>) -> tensor<4x8x64xbf16>
    %82 = stablehlo.multiply %81, %81 : tensor<4x8x64xbf16>
    %83 = stablehlo.multiply %82, %81 : tensor<4x8x64xbf16>
    %cst_14 = stablehlo.constant dense<4.467770e-02> : tensor<bf16>
    %84 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<bf16>) -> tensor<4x8x64xbf16>
    %85 = stablehlo.multiply %84, %83 : tensor<4x8x64xbf16>
    %86 = stablehlo.add %81, %85 : tensor<4x8x64xbf16>
    %cst_15 = stablehlo.constant dense<7.968750e-01> : tensor<bf16>
    %87 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<bf16>) -> tensor<4x8x64xbf16>
    %88 = stablehlo.multiply %87, %86 : tensor<4x8x64xbf16>
    %89 = stablehlo.tanh %88 : tensor<4x8x64xbf16>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %90 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<bf16>) -> tensor<4x8x64xbf16>
    %91 = stablehlo.add %90, %89 : tensor<4x8x64xbf16>
    %cst_17 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %92 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<bf16>) -> tensor<4x8x64xbf16>
    %93 = stablehlo.multiply %92, %91 : tensor<4x8x64xbf16>
    %94 = stablehlo.multiply %81, %93 : tensor<4x8x64xbf16>
    %95 = stablehlo.convert %arg11 : (tensor<64x32xf32>) -> tensor<64x32xbf16>
    %96 = stablehlo.dot_general %94, %95, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x64xbf16>, tensor<64x32xbf16>) -> tensor<4x8x32xbf16>
    %97 = stablehlo.add %53, %96 : tensor<4x8x32xbf16>
    return %97, %arg3 : tensor<4x8x32xbf16>, tensor<4x8x32xbf16>
  }
  func.func private @_where_5(%arg0: tensor<4x4x8x8xbf16>, %arg1: tensor<4x4x8x8xi1>, %arg2: tensor<4x4x8x8xbf16>) -> tensor<4x4x8x8xbf16> {
    %0 = stablehlo.select %arg1, %arg0, %arg2 : tensor<4x4x8x8xi1>, tensor<4x4x8x8xbf16>
    return %0 : tensor<4x4x8x8xbf16>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<2x4x8x32xbf16>, %arg1: tensor<4x8x32xbf16>, %arg2: tensor<i32>) -> tensor<2x4x8x32xbf16> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<4x8x32xbf16>) -> tensor<1x4x8x32xbf16>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<2x4x8x32xbf16>, tensor<1x4x8x32xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x4x8x32xbf16>
    return %1 : tensor<2x4x8x32xbf16>
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
  func.func private @_take_6(%arg0: tensor<4x8x1xf32>, %arg1: tensor<i32>) -> (tensor<4x8xf32>, tensor<1xi32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare LT, %arg1, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.add %arg1, %c_0 : tensor<i32>
    %2 = call @_where_7(%0, %1, %arg1) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
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
  func.func private @_where_7(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @_take_8(%arg0: tensor<1xi32>, %arg1: tensor<4x8xf32>) -> tensor<4x8x1xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1], inserted_window_dims = [2], scatter_dims_to_operand_dims = [2]>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x8x1xf32>, tensor<1xi32>, tensor<4x8xf32>) -> tensor<4x8x1xf32>
    return %1 : tensor<4x8x1xf32>
  }
  func.func private @take_along_axis_9(%arg0: tensor<4x8x1x1xi32>, %arg1: tensor<4x8x1xf32>) -> tensor<4x8x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8x64xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [2], input_batching_dims = [0, 1], scatter_indices_batching_dims = [0, 1], scatter_dims_to_operand_dims = [2], index_vector_dim = 3>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x8x64xf32>, tensor<4x8x1x1xi32>, tensor<4x8x1xf32>) -> tensor<4x8x64xf32>
    return %1 : tensor<4x8x64xf32>
  }
  func.func private @dynamic_index_in_dim_10(%arg0: tensor<2x4x8x32xbf16>, %arg1: tensor<i32>) -> tensor<4x8x32xbf16> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 4, 8, 32] : (tensor<2x4x8x32xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x8x32xbf16>
    %1 = stablehlo.reshape %0 : (tensor<1x4x8x32xbf16>) -> tensor<4x8x32xbf16>
    return %1 : tensor<4x8x32xbf16>
  }
  func.func private @closed_call_11(%arg0: tensor<4x8x32xbf16>, %arg1: tensor<32x4x8xf32>, %arg2: tensor<4x8x32xf32>, %arg3: tensor<32x4x8xf32>, %arg4: tensor<32x4x8xf32>, %arg5: tensor<32xf32>, %arg6: tensor<32xf32>, %arg7: tensor<32x64xf32>, %arg8: tensor<64x32xf32>, %arg9: tensor<4x8x32xbf16>) -> (tensor<4x8x32xbf16>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<64x32xf32>) {
    %0:10 = stablehlo.optimization_barrier %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9, %arg0 : tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<4x8x32xbf16>, tensor<4x8x32xbf16>
    %1 = stablehlo.convert %0#8 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %2 = chlo.square %1 : tensor<4x8x32xf32> -> tensor<4x8x32xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8x32xf32>
    %4 = stablehlo.multiply %3, %1 : tensor<4x8x32xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%1 init: %cst_0) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_1 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %7 = stablehlo.divide %5, %6 : tensor<4x8xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%2 init: %cst_2) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_3 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %10 = stablehlo.divide %8, %9 : tensor<4x8xf32>
    %11 = chlo.square %7 : tensor<4x8xf32> -> tensor<4x8xf32>
    %cst_4 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %13 = stablehlo.multiply %12, %7 : tensor<4x8xf32>
    %14 = stablehlo.subtract %10, %11 : tensor<4x8xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %16 = stablehlo.maximum %15, %14 : tensor<4x8xf32>
    %17 = stablehlo.compare EQ, %14, %16, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %20 = stablehlo.select %17, %18, %19 : tensor<4x8xi1>, tensor<4x8xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %22 = stablehlo.compare EQ, %21, %16, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_9 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %25 = stablehlo.select %22, %23, %24 : tensor<4x8xi1>, tensor<4x8xf32>
    %26 = stablehlo.divide %20, %25 : tensor<4x8xf32>
    %27 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %28 = stablehlo.broadcast_in_dim %16, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %29 = stablehlo.convert %0#8 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %30 = stablehlo.broadcast_in_dim %27, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %31 = stablehlo.subtract %29, %30 : tensor<4x8x32xf32>
    %cst_11 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %33 = stablehlo.add %28, %32 : tensor<4x8x1xf32>
    %34 = stablehlo.rsqrt %33 : tensor<4x8x1xf32>
    %35 = stablehlo.divide %34, %33 : tensor<4x8x1xf32>
    %cst_12 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %37 = stablehlo.multiply %36, %35 : tensor<4x8x1xf32>
    %38 = stablehlo.reshape %0#4 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %39 = stablehlo.broadcast_in_dim %34, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %40 = stablehlo.broadcast_in_dim %38, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %41 = stablehlo.multiply %39, %40 : tensor<4x8x32xf32>
    %42 = stablehlo.multiply %31, %41 : tensor<4x8x32xf32>
    %43 = stablehlo.convert %42 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
    %44 = stablehlo.iota dim = 0 : tensor<8xi32>
    %45 = stablehlo.broadcast_in_dim %44, dims = [1] : (tensor<8xi32>) -> tensor<4x8xi32>
    %46 = stablehlo.broadcast_in_dim %45, dims = [0, 1] : (tensor<4x8xi32>) -> tensor<4x8x1xi32>
    %47 = stablehlo.broadcast_in_dim %45, dims = [0, 2] : (tensor<4x8xi32>) -> tensor<4x1x8xi32>
    %48 = stablehlo.broadcast_in_dim %46, dims = [0, 1, 2] : (tensor<4x8x1xi32>) -> tensor<4x8x8xi32>
    %49 = stablehlo.broadcast_in_dim %47, dims = [0, 1, 2] : (tensor<4x1x8xi32>) -> tensor<4x8x8xi32>
    %50 = stablehlo.compare GE, %48, %49, SIGNED : (tensor<4x8x8xi32>, tensor<4x8x8xi32>) -> tensor<4x8x8xi1>
    %51 = stablehlo.broadcast_in_dim %50, dims = [0, 2, 3] : (tensor<4x8x8xi1>) -> tensor<4x1x8x8xi1>
    %52 = stablehlo.convert %51 : (tensor<4x1x8x8xi1>) -> tensor<4x1x8x8xf32>
    %53 = stablehlo.convert %0#2 : (tensor<32x4x8xf32>) -> tensor<32x4x8xbf16>
    %54 = stablehlo.dot_general %43, %53, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xbf16>, tensor<32x4x8xbf16>) -> tensor<4x8x4x8xbf16>
    %55 = stablehlo.convert %0#0 : (tensor<32x4x8xf32>) -> tensor<32x4x8xbf16>
    %56 = stablehlo.dot_general %43, %55, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xbf16>, tensor<32x4x8xbf16>) -> tensor<4x8x4x8xbf16>
    %57 = stablehlo.convert %0#3 : (tensor<32x4x8xf32>) -> tensor<32x4x8xbf16>
    %58 = stablehlo.dot_general %43, %57, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xbf16>, tensor<32x4x8xbf16>) -> tensor<4x8x4x8xbf16>
    %cst_13 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %59 = stablehlo.sqrt %cst_13 : tensor<f32>
    %60 = stablehlo.convert %59 : (tensor<f32>) -> tensor<bf16>
    %61 = stablehlo.broadcast_in_dim %60, dims = [] : (tensor<bf16>) -> tensor<4x8x4x8xbf16>
    %62 = stablehlo.divide %54, %61 : tensor<4x8x4x8xbf16>
    %63 = stablehlo.dot_general %62, %56, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xbf16>, tensor<4x8x4x8xbf16>) -> tensor<4x4x8x8xbf16>
    %cst_14 = stablehlo.constant dense<-3.389530e+38> : tensor<bf16>
    %64:2 = call @_where_12(%52, %63, %cst_14) : (tensor<4x1x8x8xf32>, tensor<4x4x8x8xbf16>, tensor<bf16>) -> (tensor<4x4x8x8xbf16>, tensor<4x4x8x8xi1>)
    %cst_15 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %65 = stablehlo.reduce(%64#0 init: %cst_15) applies stablehlo.maximum across dimensions = [3] : (tensor<4x4x8x8xbf16>, tensor<bf16>) -> tensor<4x4x8xbf16>
    %cst_16 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %66 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<bf16>) -> tensor<4x4x8xbf16>
    %67 = stablehlo.maximum %66, %65 : tensor<4x4x8xbf16>
    %68 = stablehlo.broadcast_in_dim %67, dims = [0, 1, 2] : (tensor<4x4x8xbf16>) -> tensor<4x4x8x1xbf16>
    %69 = stablehlo.broadcast_in_dim %68, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xbf16>) -> tensor<4x4x8x8xbf16>
    %70 = stablehlo.subtract %64#0, %69 : tensor<4x4x8x8xbf16>
    %71 = stablehlo.exponential %70 : tensor<4x4x8x8xbf16>
    %72 = stablehlo.convert %71 : (tensor<4x4x8x8xbf16>) -> tensor<4x4x8x8xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %73 = stablehlo.reduce(%72 init: %cst_17) applies stablehlo.add across dimensions = [3] : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %74 = stablehlo.broadcast_in_dim %73, dims = [0, 1, 2] : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %75 = stablehlo.convert %74 : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x1xbf16>
    %76 = stablehlo.broadcast_in_dim %75, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xbf16>) -> tensor<4x4x8x8xbf16>
    %77 = stablehlo.divide %71, %76 : tensor<4x4x8x8xbf16>
    %78 = stablehlo.multiply %75, %75 : tensor<4x4x8x1xbf16>
    %cst_18 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %79 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<bf16>) -> tensor<4x4x8x1xbf16>
    %80 = stablehlo.divide %79, %78 : tensor<4x4x8x1xbf16>
    %81 = stablehlo.dot_general %58, %77, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xbf16>, tensor<4x4x8x8xbf16>) -> tensor<4x4x8x8xbf16>
    %82 = stablehlo.transpose %81, dims = [0, 3, 1, 2] : (tensor<4x4x8x8xbf16>) -> tensor<4x8x4x8xbf16>
    %83 = stablehlo.convert %0#1 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
    %84 = stablehlo.dot_general %82, %83, contracting_dims = [2, 3] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xbf16>, tensor<4x8x32xbf16>) -> tensor<4x8x32xbf16>
    %85 = stablehlo.add %0#8, %84 : tensor<4x8x32xbf16>
    %86 = stablehlo.convert %85 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %87 = chlo.square %86 : tensor<4x8x32xf32> -> tensor<4x8x32xf32>
    %cst_19 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %88 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<4x8x32xf32>
    %89 = stablehlo.multiply %88, %86 : tensor<4x8x32xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %90 = stablehlo.reduce(%86 init: %cst_20) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_21 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %91 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %92 = stablehlo.divide %90, %91 : tensor<4x8xf32>
    %cst_22 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %93 = stablehlo.reduce(%87 init: %cst_22) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_23 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %94 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %95 = stablehlo.divide %93, %94 : tensor<4x8xf32>
    %96 = chlo.square %92 : tensor<4x8xf32> -> tensor<4x8xf32>
    %cst_24 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %97 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %98 = stablehlo.multiply %97, %92 : tensor<4x8xf32>
    %99 = stablehlo.subtract %95, %96 : tensor<4x8xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %100 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %101 = stablehlo.maximum %100, %99 : tensor<4x8xf32>
    %102 = stablehlo.compare EQ, %99, %101, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_26 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %103 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %104 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %105 = stablehlo.select %102, %103, %104 : tensor<4x8xi1>, tensor<4x8xf32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %106 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %107 = stablehlo.compare EQ, %106, %101, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_29 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %108 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_30 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %109 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %110 = stablehlo.select %107, %108, %109 : tensor<4x8xi1>, tensor<4x8xf32>
    %111 = stablehlo.divide %105, %110 : tensor<4x8xf32>
    %112 = stablehlo.broadcast_in_dim %92, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %113 = stablehlo.broadcast_in_dim %101, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %114 = stablehlo.convert %85 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %115 = stablehlo.broadcast_in_dim %112, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %116 = stablehlo.subtract %114, %115 : tensor<4x8x32xf32>
    %cst_31 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %117 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %118 = stablehlo.add %113, %117 : tensor<4x8x1xf32>
    %119 = stablehlo.rsqrt %118 : tensor<4x8x1xf32>
    %120 = stablehlo.divide %119, %118 : tensor<4x8x1xf32>
    %cst_32 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %121 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %122 = stablehlo.multiply %121, %120 : tensor<4x8x1xf32>
    %123 = stablehlo.reshape %0#5 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %124 = stablehlo.broadcast_in_dim %119, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %125 = stablehlo.broadcast_in_dim %123, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %126 = stablehlo.multiply %124, %125 : tensor<4x8x32xf32>
    %127 = stablehlo.multiply %116, %126 : tensor<4x8x32xf32>
    %128 = stablehlo.convert %127 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
    %129 = stablehlo.convert %0#6 : (tensor<32x64xf32>) -> tensor<32x64xbf16>
    %130 = stablehlo.dot_general %128, %129, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xbf16>, tensor<32x64xbf16>) -> tensor<4x8x64xbf16>
    %131 = stablehlo.multiply %130, %130 : tensor<4x8x64xbf16>
    %132 = stablehlo.multiply %131, %130 : tensor<4x8x64xbf16>
    %133 = stablehlo.multiply %130, %130 : tensor<4x8x64xbf16>
    %cst_33 = stablehlo.constant dense<3.000000e+00> : tensor<bf16>
    %134 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<bf16>) -> tensor<4x8x64xbf16>
    %135 = stablehlo.multiply %134, %133 : tensor<4x8x64xbf16>
    %cst_34 = stablehlo.constant dense<4.467770e-02> : tensor<bf16>
    %136 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<bf16>) -> tensor<4x8x64xbf16>
    %137 = stablehlo.multiply %136, %132 : tensor<4x8x64xbf16>
    %138 = stablehlo.add %130, %137 : tensor<4x8x64xbf16>
    %cst_35 = stablehlo.constant dense<7.968750e-01> : tensor<bf16>
    %139 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<bf16>) -> tensor<4x8x64xbf16>
    %140 = stablehlo.multiply %139, %138 : tensor<4x8x64xbf16>
    %141 = stablehlo.tanh %140 : tensor<4x8x64xbf16>
    %cst_36 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %142 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<bf16>) -> tensor<4x8x64xbf16>
    %143 = stablehlo.subtract %142, %141 : tensor<4x8x64xbf16>
    %cst_37 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %144 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<bf16>) -> tensor<4x8x64xbf16>
    %145 = stablehlo.add %144, %141 : tensor<4x8x64xbf16>
    %cst_38 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %146 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<bf16>) -> tensor<4x8x64xbf16>
    %147 = stablehlo.multiply %146, %145 : tensor<4x8x64xbf16>
    %148 = stablehlo.multiply %130, %147 : tensor<4x8x64xbf16>
    %149 = stablehlo.convert %0#7 : (tensor<64x32xf32>) -> tensor<64x32xbf16>
    %150 = stablehlo.dot_general %0#9, %148, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xbf16>, tensor<4x8x64xbf16>) -> tensor<32x64xbf16>
    %151 = stablehlo.transpose %150, dims = [1, 0] : (tensor<32x64xbf16>) -> tensor<64x32xbf16>
    %152 = stablehlo.dot_general %0#9, %149, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xbf16>, tensor<64x32xbf16>) -> tensor<4x8x64xbf16>
    %153 = stablehlo.convert %151 : (tensor<64x32xbf16>) -> tensor<64x32xf32>
    %154 = stablehlo.multiply %130, %152 : tensor<4x8x64xbf16>
    %155 = stablehlo.multiply %152, %147 : tensor<4x8x64xbf16>
    %cst_39 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %156 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<bf16>) -> tensor<4x8x64xbf16>
    %157 = stablehlo.multiply %156, %154 : tensor<4x8x64xbf16>
    %158 = stablehlo.multiply %157, %143 : tensor<4x8x64xbf16>
    %159 = stablehlo.multiply %158, %141 : tensor<4x8x64xbf16>
    %160 = stablehlo.add %158, %159 : tensor<4x8x64xbf16>
    %cst_40 = stablehlo.constant dense<7.968750e-01> : tensor<bf16>
    %161 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<bf16>) -> tensor<4x8x64xbf16>
    %162 = stablehlo.multiply %161, %160 : tensor<4x8x64xbf16>
    %163 = stablehlo.add %155, %162 : tensor<4x8x64xbf16>
    %cst_41 = stablehlo.constant dense<4.467770e-02> : tensor<bf16>
    %164 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<bf16>) -> tensor<4x8x64xbf16>
    %165 = stablehlo.multiply %164, %162 : tensor<4x8x64xbf16>
    %166 = stablehlo.multiply %165, %135 : tensor<4x8x64xbf16>
    %167 = stablehlo.add %163, %166 : tensor<4x8x64xbf16>
    %168 = stablehlo.dot_general %167, %128, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x64xbf16>, tensor<4x8x32xbf16>) -> tensor<64x32xbf16>
    %169 = stablehlo.transpose %168, dims = [1, 0] : (tensor<64x32xbf16>) -> tensor<32x64xbf16>
    %170 = stablehlo.dot_general %167, %129, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x64xbf16>, tensor<32x64xbf16>) -> tensor<4x8x32xbf16>
    %171 = stablehlo.convert %169 : (tensor<32x64xbf16>) -> tensor<32x64xf32>
    %172 = stablehlo.convert %170 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %173 = stablehlo.multiply %116, %172 : tensor<4x8x32xf32>
    %174 = stablehlo.multiply %172, %126 : tensor<4x8x32xf32>
    %175 = stablehlo.broadcast_in_dim %119, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %176 = stablehlo.multiply %175, %173 : tensor<4x8x32xf32>
    %cst_42 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %177 = stablehlo.reduce(%176 init: %cst_42) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %178 = stablehlo.reshape %177 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %179 = stablehlo.broadcast_in_dim %123, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %180 = stablehlo.multiply %173, %179 : tensor<4x8x32xf32>
    %cst_43 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %181 = stablehlo.reduce(%180 init: %cst_43) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %182 = stablehlo.reshape %181 : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %183 = stablehlo.reshape %178 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %184 = stablehlo.multiply %182, %122 : tensor<4x8x1xf32>
    %185 = stablehlo.negate %174 : tensor<4x8x32xf32>
    %cst_44 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %186 = stablehlo.reduce(%185 init: %cst_44) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %187 = stablehlo.reshape %186 : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %188 = stablehlo.convert %174 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
    %189 = stablehlo.add %0#9, %188 : tensor<4x8x32xbf16>
    %cst_45 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %190 = stablehlo.reduce(%184 init: %cst_45) applies stablehlo.add across dimensions = [2] : (tensor<4x8x1xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_46 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %191 = stablehlo.reduce(%187 init: %cst_46) applies stablehlo.add across dimensions = [2] : (tensor<4x8x1xf32>, tensor<f32>) -> tensor<4x8xf32>
    %192 = stablehlo.multiply %190, %111 : tensor<4x8xf32>
    %193 = stablehlo.negate %192 : tensor<4x8xf32>
    %194 = stablehlo.multiply %193, %98 : tensor<4x8xf32>
    %195 = stablehlo.add %191, %194 : tensor<4x8xf32>
    %cst_47 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %196 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %197 = stablehlo.divide %192, %196 : tensor<4x8xf32>
    %198 = stablehlo.broadcast_in_dim %197, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
    %cst_48 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %199 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %200 = stablehlo.divide %195, %199 : tensor<4x8xf32>
    %201 = stablehlo.broadcast_in_dim %200, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
    %202 = stablehlo.multiply %198, %89 : tensor<4x8x32xf32>
    %203 = stablehlo.add %201, %202 : tensor<4x8x32xf32>
    %204 = stablehlo.convert %203 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
    %205 = stablehlo.add %189, %204 : tensor<4x8x32xbf16>
    %206 = stablehlo.dot_general %205, %82, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xbf16>, tensor<4x8x4x8xbf16>) -> tensor<32x4x8xbf16>
    %207 = stablehlo.transpose %206, dims = [1, 2, 0] : (tensor<32x4x8xbf16>) -> tensor<4x8x32xbf16>
    %208 = stablehlo.dot_general %205, %83, contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xbf16>, tensor<4x8x32xbf16>) -> tensor<4x8x4x8xbf16>
    %209 = stablehlo.convert %207 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %210 = stablehlo.transpose %208, dims = [0, 2, 3, 1] : (tensor<4x8x4x8xbf16>) -> tensor<4x4x8x8xbf16>
    %211 = stablehlo.dot_general %210, %58, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x4x8x8xbf16>, tensor<4x8x4x8xbf16>) -> tensor<4x4x8x8xbf16>
    %212 = stablehlo.dot_general %210, %77, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x4x8x8xbf16>, tensor<4x4x8x8xbf16>) -> tensor<4x4x8x8xbf16>
    %213 = stablehlo.transpose %212, dims = [0, 3, 1, 2] : (tensor<4x4x8x8xbf16>) -> tensor<4x8x4x8xbf16>
    %214 = stablehlo.broadcast_in_dim %80, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xbf16>) -> tensor<4x4x8x8xbf16>
    %215 = stablehlo.multiply %211, %214 : tensor<4x4x8x8xbf16>
    %216 = stablehlo.multiply %215, %71 : tensor<4x4x8x8xbf16>
    %cst_49 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %217 = stablehlo.reduce(%216 init: %cst_49) applies stablehlo.add across dimensions = [3] : (tensor<4x4x8x8xbf16>, tensor<bf16>) -> tensor<4x4x8xbf16>
    %218 = stablehlo.reshape %217 : (tensor<4x4x8xbf16>) -> tensor<4x4x8x1xbf16>
    %219 = stablehlo.negate %218 : tensor<4x4x8x1xbf16>
    %220 = stablehlo.broadcast_in_dim %75, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xbf16>) -> tensor<4x4x8x8xbf16>
    %221 = stablehlo.divide %211, %220 : tensor<4x4x8x8xbf16>
    %222 = stablehlo.convert %219 : (tensor<4x4x8x1xbf16>) -> tensor<4x4x8x1xf32>
    %cst_50 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %223 = stablehlo.reduce(%222 init: %cst_50) applies stablehlo.add across dimensions = [3] : (tensor<4x4x8x1xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %224 = stablehlo.broadcast_in_dim %223, dims = [0, 1, 2] : (tensor<4x4x8xf32>) -> tensor<4x4x8x8xf32>
    %225 = stablehlo.convert %224 : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xbf16>
    %226 = stablehlo.add %221, %225 : tensor<4x4x8x8xbf16>
    %227 = stablehlo.multiply %226, %71 : tensor<4x4x8x8xbf16>
    %228 = call @_where_13(%64#1, %227) : (tensor<4x4x8x8xi1>, tensor<4x4x8x8xbf16>) -> tensor<4x4x8x8xbf16>
    %229 = stablehlo.dot_general %228, %62, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x4x8x8xbf16>, tensor<4x8x4x8xbf16>) -> tensor<4x4x8x8xbf16>
    %230 = stablehlo.transpose %229, dims = [0, 2, 1, 3] : (tensor<4x4x8x8xbf16>) -> tensor<4x8x4x8xbf16>
    %231 = stablehlo.dot_general %228, %56, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x4x8x8xbf16>, tensor<4x8x4x8xbf16>) -> tensor<4x4x8x8xbf16>
    %232 = stablehlo.transpose %231, dims = [0, 2, 1, 3] : (tensor<4x4x8x8xbf16>) -> tensor<4x8x4x8xbf16>
    %233 = stablehlo.broadcast_in_dim %60, dims = [] : (tensor<bf16>) -> tensor<4x8x4x8xbf16>
    %234 = stablehlo.divide %232, %233 : tensor<4x8x4x8xbf16>
    %235 = stablehlo.dot_general %213, %43, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xbf16>, tensor<4x8x32xbf16>) -> tensor<4x8x32xbf16>
    %236 = stablehlo.transpose %235, dims = [2, 0, 1] : (tensor<4x8x32xbf16>) -> tensor<32x4x8xbf16>
    %237 = stablehlo.dot_general %213, %57, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xbf16>, tensor<32x4x8xbf16>) -> tensor<4x8x32xbf16>
    %238 = stablehlo.convert %236 : (tensor<32x4x8xbf16>) -> tensor<32x4x8xf32>
    %239 = stablehlo.dot_general %230, %43, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xbf16>, tensor<4x8x32xbf16>) -> tensor<4x8x32xbf16>
    %240 = stablehlo.transpose %239, dims = [2, 0, 1] : (tensor<4x8x32xbf16>) -> tensor<32x4x8xbf16>
    %241 = stablehlo.dot_general %230, %55, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xbf16>, tensor<32x4x8xbf16>) -> tensor<4x8x32xbf16>
    %242 = stablehlo.add %237, %241 : tensor<4x8x32xbf16>
    %243 = stablehlo.convert %240 : (tensor<32x4x8xbf16>) -> tensor<32x4x8xf32>
    %244 = stablehlo.dot_general %234, %43, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xbf16>, tensor<4x8x32xbf16>) -> tensor<4x8x32xbf16>
    %245 = stablehlo.transpose %244, dims = [2, 0, 1] : (tensor<4x8x32xbf16>) -> tensor<32x4x8xbf16>
    %246 = stablehlo.dot_general %234, %53, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xbf16>, tensor<32x4x8xbf16>) -> tensor<4x8x32xbf16>
    %247 = stablehlo.add %242, %246 : tensor<4x8x32xbf16>
    %248 = stablehlo.convert %245 : (tensor<32x4x8xbf16>) -> tensor<32x4x8xf32>
    %249 = stablehlo.convert %247 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %250 = stablehlo.multiply %31, %249 : tensor<4x8x32xf32>
    %251 = stablehlo.multiply %249, %41 : tensor<4x8x32xf32>
    %252 = stablehlo.broadcast_in_dim %34, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %253 = stablehlo.multiply %252, %250 : tensor<4x8x32xf32>
    %cst_51 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %254 = stablehlo.reduce(%253 init: %cst_51) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %255 = stablehlo.reshape %254 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %256 = stablehlo.broadcast_in_dim %38, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %257 = stablehlo.multiply %250, %256 : tensor<4x8x32xf32>
    %cst_52 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %258 = stablehlo.reduce(%257 init: %cst_52) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %259 = stablehlo.reshape %258 : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %260 = stablehlo.reshape %255 : (tensor<1x1x32xf32>) -> tensor<32xf32>
    %261 = stablehlo.multiply %259, %37 : tensor<4x8x1xf32>
    %262 = stablehlo.negate %251 : tensor<4x8x32xf32>
    %cst_53 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %263 = stablehlo.reduce(%262 init: %cst_53) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %264 = stablehlo.reshape %263 : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %265 = stablehlo.convert %251 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
    %266 = stablehlo.add %205, %265 : tensor<4x8x32xbf16>
    %cst_54 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %267 = stablehlo.reduce(%261 init: %cst_54) applies stablehlo.add across dimensions = [2] : (tensor<4x8x1xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_55 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %268 = stablehlo.reduce(%264 init: %cst_55) applies stablehlo.add across dimensions = [2] : (tensor<4x8x1xf32>, tensor<f32>) -> tensor<4x8xf32>
    %269 = stablehlo.multiply %267, %26 : tensor<4x8xf32>
    %270 = stablehlo.negate %269 : tensor<4x8xf32>
    %271 = stablehlo.multiply %270, %13 : tensor<4x8xf32>
    %272 = stablehlo.add %268, %271 : tensor<4x8xf32>
    %cst_56 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %273 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %274 = stablehlo.divide %269, %273 : tensor<4x8xf32>
    %275 = stablehlo.broadcast_in_dim %274, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
    %cst_57 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %276 = stablehlo.broadcast_in_dim %cst_57, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %277 = stablehlo.divide %272, %276 : tensor<4x8xf32>
    %278 = stablehlo.broadcast_in_dim %277, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
    %279 = stablehlo.multiply %275, %4 : tensor<4x8x32xf32>
    %280 = stablehlo.add %278, %279 : tensor<4x8x32xf32>
    %281 = stablehlo.convert %280 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
    %282 = stablehlo.add %266, %281 : tensor<4x8x32xbf16>
    return %282, %243, %209, %248, %238, %260, %183, %171, %153 : tensor<4x8x32xbf16>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<64x32xf32>
  }
  func.func private @_where_12(%arg0: tensor<4x1x8x8xf32>, %arg1: tensor<4x4x8x8xbf16>, %arg2: tensor<bf16>) -> (tensor<4x4x8x8xbf16>, tensor<4x4x8x8xi1>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x1x8x8xf32>
    %1 = stablehlo.compare NE, %arg0, %0, FLOAT : (tensor<4x1x8x8xf32>, tensor<4x1x8x8xf32>) -> tensor<4x1x8x8xi1>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<4x1x8x8xi1>) -> tensor<4x4x8x8xi1>
    %3 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<bf16>) -> tensor<4x4x8x8xbf16>
    %4 = stablehlo.select %2, %arg1, %3 : tensor<4x4x8x8xi1>, tensor<4x4x8x8xbf16>
    return %4, %2 : tensor<4x4x8x8xbf16>, tensor<4x4x8x8xi1>
  }
  func.func private @_where_13(%arg0: tensor<4x4x8x8xi1>, %arg1: tensor<4x4x8x8xbf16>) -> tensor<4x4x8x8xbf16> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<4x4x8x8xbf16>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<4x4x8x8xi1>, tensor<4x4x8x8xbf16>
    return %1 : tensor<4x4x8x8xbf16>
  }
  func.func private @dynamic_update_index_in_dim_14(%arg0: tensor<2x32x4x8xf32>, %arg1: tensor<32x4x8xf32>, %arg2: tensor<i32>) -> tensor<2x32x4x8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<32x4x8xf32>) -> tensor<1x32x4x8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<2x32x4x8xf32>, tensor<1x32x4x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x32x4x8xf32>
    return %1 : tensor<2x32x4x8xf32>
  }
  func.func private @dynamic_update_index_in_dim_15(%arg0: tensor<2x4x8x32xf32>, %arg1: tensor<4x8x32xf32>, %arg2: tensor<i32>) -> tensor<2x4x8x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<4x8x32xf32>) -> tensor<1x4x8x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<2x4x8x32xf32>, tensor<1x4x8x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x4x8x32xf32>
    return %1 : tensor<2x4x8x32xf32>
  }
  func.func private @dynamic_update_index_in_dim_16(%arg0: tensor<2x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<i32>) -> tensor<2x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<2x32xf32>, tensor<1x32xf32>, tensor<i32>, tensor<i32>) -> tensor<2x32xf32>
    return %1 : tensor<2x32xf32>
  }
  func.func private @dynamic_update_index_in_dim_17(%arg0: tensor<2x32x64xf32>, %arg1: tensor<32x64xf32>, %arg2: tensor<i32>) -> tensor<2x32x64xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<32x64xf32>) -> tensor<1x32x64xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<2x32x64xf32>, tensor<1x32x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x32x64xf32>
    return %1 : tensor<2x32x64xf32>
  }
  func.func private @dynamic_update_index_in_dim_18(%arg0: tensor<2x64x32xf32>, %arg1: tensor<64x32xf32>, %arg2: tensor<i32>) -> tensor<2x64x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<64x32xf32>) -> tensor<1x64x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<2x64x32xf32>, tensor<1x64x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x64x32xf32>
    return %1 : tensor<2x64x32xf32>
  }
  func.func private @_take_19(%arg0: tensor<4x8x1xi32>, %arg1: tensor<4x8x32xf32>) -> tensor<64x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<64x32xf32>, tensor<4x8x1xi32>, tensor<4x8x32xf32>) -> tensor<64x32xf32>
    return %1 : tensor<64x32xf32>
  }
  func.func private @_where_20(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
