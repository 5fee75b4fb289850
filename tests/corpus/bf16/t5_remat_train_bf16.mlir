module @jit_step attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<2x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg1: tensor<2x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg2: tensor<2x64x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg3: tensor<2x32x64xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"model"}]>}, %arg4: tensor<2x32x64xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"model"}]>}, %arg5: tensor<2x32x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"model"}]>}, %arg6: tensor<2x32x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg7: tensor<2x32x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"model"}]>}, %arg8: tensor<2x32x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"model"}]>}, %arg9: tensor<2x8x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}, %arg10: tensor<2x8x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}) -> (tensor<f32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, []>}, tensor<2x32xbf16> {jax.result_info = "result[1]['ln1']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<2x32xbf16> {jax.result_info = "result[1]['ln2']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<2x64x32xbf16> {jax.result_info = "result[1]['wff']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, tensor<2x32x64xbf16> {jax.result_info = "result[1]['wi0']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"model"}]>}, tensor<2x32x64xbf16> {jax.result_info = "result[1]['wi1']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"model"}]>}, tensor<2x32x32xbf16> {jax.result_info = "result[1]['wk']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"model"}]>}, tensor<2x32x32xbf16> {jax.result_info = "result[1]['wo']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, tensor<2x32x32xbf16> {jax.result_info = "result[1]['wq']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"model"}]>}, tensor<2x32x32xbf16> {jax.result_info = "result[1]['wv']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"model"}]>}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<2x2x8x32xbf16>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:12 = stablehlo.while(%iterArg = %arg0, %iterArg_15 = %arg1, %iterArg_16 = %arg2, %iterArg_17 = %arg3, %iterArg_18 = %arg4, %iterArg_19 = %arg5, %iterArg_20 = %arg6, %iterArg_21 = %arg7, %iterArg_22 = %arg8, %iterArg_23 = %c, %iterArg_24 = %arg9, %iterArg_25 = %0) : tensor<2x32xbf16>, tensor<2x32xbf16>, tensor<2x64x32xbf16>, tensor<2x32x64xbf16>, tensor<2x32x64xbf16>, tensor<2x32x32xbf16>, tensor<2x32x32xbf16>, tensor<2x32x32xbf16>, tensor<2x32x32xbf16>, tensor<i32>, tensor<2x8x32xbf16>, tensor<2x2x8x32xbf16>
    cond {
      %c_26 = stablehlo.constant dense<2> : tensor<i32>
      %24 = stablehlo.compare LT, %iterArg_23, %c_26, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %24 : tensor<i1>
    } do {
      %24 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_23) : (tensor<2x32xbf16>, tensor<i32>) -> tensor<32xbf16>
      %25 = func.call @dynamic_index_in_dim(%iterArg_15, %iterArg_23) : (tensor<2x32xbf16>, tensor<i32>) -> tensor<32xbf16>
      %26 = func.call @dynamic_index_in_dim_0(%iterArg_16, %iterArg_23) : (tensor<2x64x32xbf16>, tensor<i32>) -> tensor<64x32xbf16>
      %27 = func.call @dynamic_index_in_dim_1(%iterArg_17, %iterArg_23) : (tensor<2x32x64xbf16>, tensor<i32>) -> tensor<32x64xbf16>
      %28 = func.call @dynamic_index_in_dim_1(%iterArg_18, %iterArg_23) : (tensor<2x32x64xbf16>, tensor<i32>) -> tensor<32x64xbf16>
      %29 = func.call @dynamic_index_in_dim_2(%iterArg_19, %iterArg_23) : (tensor<2x32x32xbf16>, tensor<i32>) -> tensor<32x32xbf16>
      %30 = func.call @dynamic_index_in_dim_2(%iterArg_20, %iterArg_23) : (tensor<2x32x32xbf16>, tensor<i32>) -> tensor<32x32xbf16>
      %31 = func.call @dynamic_index_in_dim_2(%iterArg_21, %iterArg_23) : (tensor<2x32x32xbf16>, tensor<i32>) -> tensor<32x32xbf16>
      %32 = func.call @dynamic_index_in_dim_2(%iterArg_22, %iterArg_23) : (tensor<2x32x32xbf16>, tensor<i32>) -> tensor<32x32xbf16>
      %33:2 = func.call @closed_call(%iterArg_24, %24, %25, %26, %27, %28, %29, %30, %31, %32) : (tensor<2x8x32xbf16>, tensor<32xbf16>, tensor<32xbf16>, tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<32x64xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>) -> (tensor<2x8x32xbf16>, tensor<2x8x32xbf16>)
      %34 = func.call @dynamic_update_index_in_dim(%iterArg_25, %33#1, %iterArg_23) : (tensor<2x2x8x32xbf16>, tensor<2x8x32xbf16>, tensor<i32>) -> tensor<2x2x8x32xbf16>
      %c_26 = stablehlo.constant dense<1> : tensor<i32>
      %35 = stablehlo.add %iterArg_23, %c_26 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_15, %iterArg_16, %iterArg_17, %iterArg_18, %iterArg_19, %iterArg_20, %iterArg_21, %iterArg_22, %35, %33#0, %34 : tensor<2x32xbf16>, tensor<2x32xbf16>, tensor<2x64x32xbf16>, tensor<2x32x64xbf16>, tensor<2x32x64xbf16>, tensor<2x32x32xbf16>, tensor<2x32x32xbf16>, tensor<2x32x32xbf16>, tensor<2x32x32xbf16>, tensor<i32>, tensor<2x8x32xbf16>, tensor<2x2x8x32xbf16>
    }
    %2 = stablehlo.convert %1#10 : (tensor<2x8x32xbf16>) -> tensor<2x8x32xf32>
    %3 = stablehlo.convert %arg10 : (tensor<2x8x32xbf16>) -> tensor<2x8x32xf32>
    %4 = stablehlo.subtract %2, %3 : tensor<2x8x32xf32>
    %5 = chlo.square %4 : tensor<2x8x32xf32> -> tensor<2x8x32xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x8x32xf32>
    %7 = stablehlo.multiply %6, %4 : tensor<2x8x32xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%5 init: %cst_1) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %9 = stablehlo.divide %8, %cst_2 : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_4 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %10 = stablehlo.divide %cst_3, %cst_4 : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [] : (tensor<f32>) -> tensor<2x8x32xf32>
    %12 = stablehlo.multiply %11, %7 : tensor<2x8x32xf32>
    %13 = stablehlo.convert %12 : (tensor<2x8x32xf32>) -> tensor<2x8x32xbf16>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %14 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<bf16>) -> tensor<2x32xbf16>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %15 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<bf16>) -> tensor<2x32xbf16>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %16 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<bf16>) -> tensor<2x64x32xbf16>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %17 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<bf16>) -> tensor<2x32x64xbf16>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %18 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<bf16>) -> tensor<2x32x64xbf16>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %19 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<bf16>) -> tensor<2x32x32xbf16>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %20 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<bf16>) -> tensor<2x32x32xbf16>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %21 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<bf16>) -> tensor<2x32x32xbf16>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %22 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<bf16>) -> tensor<2x32x32xbf16>
    %c_14 = stablehlo.constant dense<0> : tensor<i32>
    %23:21 = stablehlo.while(%iterArg = %1#11, %iterArg_15 = %arg0, %iterArg_16 = %arg1, %iterArg_17 = %arg2, %iterArg_18 = %arg3, %iterArg_19 = %arg4, %iterArg_20 = %arg5, %iterArg_21 = %arg6, %iterArg_22 = %arg7, %iterArg_23 = %arg8, %iterArg_24 = %c_14, %iterArg_25 = %13, %iterArg_26 = %14, %iterArg_27 = %15, %iterArg_28 = %16, %iterArg_29 = %17, %iterArg_30 = %18, %iterArg_31 = %19, %iterArg_32 = %20, %iterArg_33 = %21, %iterArg_34 = %22) : tensor<2x2x8x32xbf16>, tensor<2x32xbf16>, tensor<2x32xbf16>, tensor<2x64x32xbf16>, tensor<2x32x64xbf16>, tensor<2x32x64xbf16>, tensor<2x32x32xbf16>, tensor<2x32x32xbf16>, tensor<2x32x32xbf16>, tensor<2x32x32xbf16>, tensor<i32>, tensor<2x8x32xbf16>, tensor<2x32xbf16>, tensor<2x32xbf16>, tensor<2x64x32xbf16>, tensor<2x32x64xbf16>, tensor<2x32x64xbf16>, tensor<2x32x32xbf16>, tensor<2x32x32xbf16>, tensor<2x32x32xbf16>, tensor<2x32x32xbf16>
    cond {
      %c_35 = stablehlo.constant dense<2> : tensor<i32>
      %24 = stablehlo.compare LT, %iterArg_24, %c_35, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %24 : tensor<i1>
    } do {
      %c_35 = stablehlo.constant dense<2> : tensor<i32>
      %24 = stablehlo.subtract %c_35, %iterArg_24 : tensor<i32>
      %c_36 = stablehlo.constant dense<1> : tensor<i32>
      %25 = stablehlo.subtract %24, %c_36 : tensor<i32>
      %26 = func.call @dynamic_index_in_dim_3(%iterArg, %25) : (tensor<2x2x8x32xbf16>, tensor<i32>) -> tensor<2x8x32xbf16>
      %27 = func.call @dynamic_index_in_dim(%iterArg_15, %25) : (tensor<2x32xbf16>, tensor<i32>) -> tensor<32xbf16>
      %28 = func.call @dynamic_index_in_dim(%iterArg_16, %25) : (tensor<2x32xbf16>, tensor<i32>) -> tensor<32xbf16>
      %29 = func.call @dynamic_index_in_dim_0(%iterArg_17, %25) : (tensor<2x64x32xbf16>, tensor<i32>) -> tensor<64x32xbf16>
      %30 = func.call @dynamic_index_in_dim_1(%iterArg_18, %25) : (tensor<2x32x64xbf16>, tensor<i32>) -> tensor<32x64xbf16>
      %31 = func.call @dynamic_index_in_dim_1(%iterArg_19, %25) : (tensor<2x32x64xbf16>, tensor<i32>) -> tensor<32x64xbf16>
      %32 = func.call @dynamic_index_in_dim_2(%iterArg_20, %25) : (tensor<2x32x32xbf16>, tensor<i32>) -> tensor<32x32xbf16>
      %33 = func.call @dynamic_index_in_dim_2(%iterArg_21, %25) : (tensor<2x32x32xbf16>, tensor<i32>) -> tensor<32x32xbf16>
      %34 = func.call @dynamic_index_in_dim_2(%iterArg_22, %25) : (tensor<2x32x32xbf16>, tensor<i32>) -> tensor<32x32xbf16>
      %35 = func.call @dynamic_index_in_dim_2(%iterArg_23, %25) : (tensor<2x32x32xbf16>, tensor<i32>) -> tensor<32x32xbf16>
      %36:10 = func.call @closed_call_4(%iterArg_25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35) : (tensor<2x8x32xbf16>, tensor<2x8x32xbf16>, tensor<32xbf16>, tensor<32xbf16>, tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<32x64xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>) -> (tensor<2x8x32xbf16>, tensor<32xbf16>, tensor<32xbf16>, tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<32x64xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>)
      %37 = func.call @dynamic_update_index_in_dim_5(%iterArg_26, %36#1, %25) : (tensor<2x32xbf16>, tensor<32xbf16>, tensor<i32>) -> tensor<2x32xbf16>
      %38 = func.call @dynamic_update_index_in_dim_5(%iterArg_27, %36#2, %25) : (tensor<2x32xbf16>, tensor<32xbf16>, tensor<i32>) -> tensor<2x32xbf16>
      %39 = func.call @dynamic_update_index_in_dim_6(%iterArg_28, %36#3, %25) : (tensor<2x64x32xbf16>, tensor<64x32xbf16>, tensor<i32>) -> tensor<2x64x32xbf16>
      %40 = func.call @dynamic_update_index_in_dim_7(%iterArg_29, %36#4, %25) : (tensor<2x32x64xbf16>, tensor<32x64xbf16>, tensor<i32>) -> tensor<2x32x64xbf16>
      %41 = func.call @dynamic_update_index_in_dim_7(%iterArg_30, %36#5, %25) : (tensor<2x32x64xbf16>, tensor<32x64xbf16>, tensor<i32>) -> tensor<2x32x64xbf16>
      %42 = func.call @dynamic_update_index_in_dim_8(%iterArg_31, %36#6, %25) : (tensor<2x32x32xbf16>, tensor<32x32xbf16>, tensor<i32>) -> tensor<2x32x32xbf16>
      %43 = func.call @dynamic_update_index_in_dim_8(%iterArg_32, %36#7, %25) : (tensor<2x32x32xbf16>, tensor<32x32xbf16>, tensor<i32>) -> tensor<2x32x32xbf16>
      %44 = func.call @dynamic_update_index_in_dim_8(%iterArg_33, %36#8, %25) : (tensor<2x32x32xbf16>, tensor<32x32xbf16>, tensor<i32>) -> tensor<2x32x32xbf16>
      %45 = func.call @dynamic_update_index_in_dim_8(%iterArg_34, %36#9, %25) : (tensor<2x32x32xbf16>, tensor<32x32xbf16>, tensor<i32>) -> tensor<2x32x32xbf16>
      %c_37 = stablehlo.constant dense<1> : tensor<i32>
      %46 = stablehlo.add %iterArg_24, %c_37 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_15, %iterArg_16, %iterArg_17, %iterArg_18, %iterArg_19, %iterArg_20, %iterArg_21, %iterArg_22, %iterArg_23, %46, %36#0, %37, %38, %39, %40, %41, %42, %43, %44, %45 : tensor<2x2x8x32xbf16>, tensor<2x32xbf16>, tensor<2x32xbf16>, tensor<2x64x32xbf16>, tensor<2x32x64xbf16>, tensor<2x32x64xbf16>, tensor<2x32x32xbf16>, tensor<2x32x32xbf16>, tensor<2x32x32xbf16>, tensor<2x32x32xbf16>, tensor<i32>, tensor<2x8x32xbf16>, tensor<2x32xbf16>, tensor<2x32xbf16>, tensor<2x64x32xbf16>, tensor<2x32x64xbf16>, tensor<2x32x64xbf16>, tensor<2x32x32xbf16>, tensor<2x32x32xbf16>, tensor<2x32x32xbf16>, tensor<2x32x32xbf16>
    }
    return %9, %23#12, %23#13, %23#14, %23#15, %23#16, %23#17, %23#18, %23#19, %23#20 : tensor<f32>, tensor<2x32xbf16>, tensor<2x32xbf16>, tensor<2x64x32xbf16>, tensor<2x32x64xbf16>, tensor<2x32x64xbf16>, tensor<2x32x32xbf16>, tensor<2x32x32xbf16>, tensor<2x32x32xbf16>, tensor<2x32x32xbf16>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<2x32xbf16>, %arg1: tensor<i32>) -> tensor<32xbf16> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 32] : (tensor<2x32xbf16>, tensor<i32>, tensor<i32>) -> tensor<1x32xbf16>
    %1 = stablehlo.reshape %0 : (tensor<1x32xbf16>) -> tensor<32xbf16>
    return %1 : tensor<32xbf16>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<2x64x32xbf16>, %arg1: tensor<i32>) -> tensor<64x32xbf16> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 64, 32] : (tensor<2x64x32xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x32xbf16>
    %1 = stablehlo.reshape %0 : (tensor<1x64x32xbf16>) -> tensor<64x32xbf16>
    return %1 : tensor<64x32xbf16>
  }
  func.func private @dynamic_index_in_dim_1(%arg0: tensor<2x32x64xbf16>, %arg1: tensor<i32>) -> tensor<32x64xbf16> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 32, 64] : (tensor<2x32x64xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x64xbf16>
    %1 = stablehlo.reshape %0 : (tensor<1x32x64xbf16>) -> tensor<32x64xbf16>
    return %1 : tensor<32x64xbf16>
  }
  func.func private @dynamic_index_in_dim_2(%arg0: tensor<2x32x32xbf16>, %arg1: tensor<i32>) -> tensor<32x32xbf16> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 32, 32] : (tensor<2x32x32xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x32xbf16>
    %1 = stablehlo.reshape %0 : (tensor<1x32x32xbf16>) -> tensor<32x32xbf16>
    return %1 : tensor<32x32xbf16>
  }
  func.func private @closed_call(%arg0: tensor<2x8x32xbf16>, %arg1: tensor<32xbf16>, %arg2: tensor<32xbf16>, %arg3: tensor<64x32xbf16>, %arg4: tensor<32x64xbf16>, %arg5: tensor<32x64xbf16>, %arg6: tensor<32x32xbf16>, %arg7: tensor<32x32xbf16>, %arg8: tensor<32x32xbf16>, %arg9: tensor<32x32xbf16>) -> (tensor<2x8x32xbf16>, tensor<2x8x32xbf16>) {
    %0 = stablehlo.convert %arg0 : (tensor<2x8x32xbf16>) -> tensor<2x8x32xf32>
    %1 = chlo.square %0 : tensor<2x8x32xf32> -> tensor<2x8x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %5 = stablehlo.divide %3, %4 : tensor<2x8x1xf32>
    %6 = stablehlo.convert %arg0 : (tensor<2x8x32xbf16>) -> tensor<2x8x32xf32>
    %cst_1 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %8 = stablehlo.add %5, %7 : tensor<2x8x1xf32>
    %9 = stablehlo.rsqrt %8 : tensor<2x8x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %11 = stablehlo.multiply %6, %10 : tensor<2x8x32xf32>
    %12 = stablehlo.convert %11 : (tensor<2x8x32xf32>) -> tensor<2x8x32xbf16>
    %13 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x8x32xbf16>
    %15 = stablehlo.multiply %12, %14 : tensor<2x8x32xbf16>
    %16 = stablehlo.dot_general %15, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x32xbf16>) -> tensor<2x8x32xbf16>
    %17 = stablehlo.reshape %16 : (tensor<2x8x32xbf16>) -> tensor<2x8x2x16xbf16>
    %18 = stablehlo.dot_general %15, %arg6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x32xbf16>) -> tensor<2x8x32xbf16>
    %19 = stablehlo.reshape %18 : (tensor<2x8x32xbf16>) -> tensor<2x8x2x16xbf16>
    %20 = stablehlo.dot_general %15, %arg9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x32xbf16>) -> tensor<2x8x32xbf16>
    %21 = stablehlo.reshape %20 : (tensor<2x8x32xbf16>) -> tensor<2x8x2x16xbf16>
    %22 = stablehlo.dot_general %17, %19, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x8x2x16xbf16>, tensor<2x8x2x16xbf16>) -> tensor<2x2x8x8xbf16>
    %23 = stablehlo.convert %22 : (tensor<2x2x8x8xbf16>) -> tensor<2x2x8x8xf32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %24 = stablehlo.reduce(%23 init: %cst_2) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x2x8xf32>
    %26 = stablehlo.maximum %25, %24 : tensor<2x2x8xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0, 1, 2] : (tensor<2x2x8xf32>) -> tensor<2x2x8x1xf32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [0, 1, 2, 3] : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
    %29 = stablehlo.subtract %23, %28 : tensor<2x2x8x8xf32>
    %30 = stablehlo.exponential %29 : tensor<2x2x8x8xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %31 = stablehlo.reduce(%30 init: %cst_4) applies stablehlo.add across dimensions = [3] : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %32 = stablehlo.broadcast_in_dim %31, dims = [0, 1, 2] : (tensor<2x2x8xf32>) -> tensor<2x2x8x1xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1, 2, 3] : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
    %34 = stablehlo.divide %30, %33 : tensor<2x2x8x8xf32>
    %35 = stablehlo.convert %34 : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xbf16>
    %36 = stablehlo.dot_general %21, %35, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x8x2x16xbf16>, tensor<2x2x8x8xbf16>) -> tensor<2x2x16x8xbf16>
    %37 = stablehlo.transpose %36, dims = [0, 3, 1, 2] : (tensor<2x2x16x8xbf16>) -> tensor<2x8x2x16xbf16>
    %38 = stablehlo.reshape %37 : (tensor<2x8x2x16xbf16>) -> tensor<2x8x32xbf16>
    %39 = stablehlo.dot_general %38, %arg7, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x32xbf16>) -> tensor<2x8x32xbf16>
    %40 = stablehlo.add %arg0, %39 : tensor<2x8x32xbf16>
    %41 = stablehlo.convert %40 : (tensor<2x8x32xbf16>) -> tensor<2x8x32xf32>
    %42 = chlo.square %41 : tensor<2x8x32xf32> -> tensor<2x8x32xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %43 = stablehlo.reduce(%42 init: %cst_5) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %44 = stablehlo.broadcast_in_dim %43, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_6 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %46 = stablehlo.divide %44, %45 : tensor<2x8x1xf32>
    %47 = stablehlo.convert %40 : (tensor<2x8x32xbf16>) -> tensor<2x8x32xf32>
    %cst_7 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %48 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %49 = stablehlo.add %46, %48 : tensor<2x8x1xf32>
    %50 = stablehlo.rsqrt %49 : tensor<2x8x1xf32>
    %51 = stablehlo.broadcast_in_dim %50, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %52 = stablehlo.multiply %47, %51 : tensor<2x8x32xf32>
    %53 = stablehlo.convert %52 : (tensor<2x8x32xf32>) -> tensor<2x8x32xbf16>
    %54 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %55 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x8x32xbf16>
    %56 = stablehlo.multiply %53, %55 : tensor<2x8x32xbf16>
    %57 = stablehlo.dot_general %56, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x64xbf16>) -> tensor<2x8x64xbf16>
    %58 = stablehlo.multiply %57, %57 : tensor<2x8x64xbf16>
    %59 = stablehlo.multiply %58, %57 : tensor<2x8x64xbf16>
    %cst_8 = stablehlo.constant dense<4.467770e-02> : tensor<bf16>
    %60 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<bf16>) -> tensor<2x8x64xbf16>
    %61 = stablehlo.multiply %60, %59 : tensor<2x8x64xbf16>
    %62 = stablehlo.add %57, %61 : tensor<2x8x64xbf16>
    %cst_9 = stablehlo.constant dense<7.968750e-01> : tensor<bf16>
    %63 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<bf16>) -> tensor<2x8x64xbf16>
    %64 = stablehlo.multiply %63, %62 : tensor<2x8x64xbf16>
    %65 = stablehlo.tanh %64 : tensor<2x8x64xbf16>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %66 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<bf16>) -> tensor<2x8x64xbf16>
    %67 = stablehlo.add %66, %65 : tensor<2x8x64xbf16>
    %cst_11 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %68 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<bf16>) -> tensor<2x8x64xbf16>
    %69 = stablehlo.multiply %68, %67 : tensor<2x8x64xbf16>
    %70 = stablehlo.multiply %57, %69 : tensor<2x8x64xbf16>
    %71 = stablehlo.dot_general %56, %arg5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x64xbf16>) -> tensor<2x8x64xbf16>
    %72 = stablehlo.multiply %70, %71 : tensor<2x8x64xbf16>
    %73 = stablehlo.dot_general %72, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x64xbf16>, tensor<64x32xbf16>) -> tensor<2x8x32xbf16>
    %74 = stablehlo.add %40, %73 : tensor<2x8x32xbf16>
    return %74, %arg0 : tensor<2x8x32xbf16>, tensor<2x8x32xbf16>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<2x2x8x32xbf16>, %arg1: tensor<2x8x32xbf16>, %arg2: tensor<i32>) -> tensor<2x2x8x32xbf16> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<2x8x32xbf16>) -> tensor<1x2x8x32xbf16>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<2x2x8x32xbf16>, tensor<1x2x8x32xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x32xbf16>
    return %1 : tensor<2x2x8x32xbf16>
  }
  func.func private @dynamic_index_in_dim_3(%arg0: tensor<2x2x8x32xbf16>, %arg1: tensor<i32>) -> tensor<2x8x32xbf16> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 2, 8, 32] : (tensor<2x2x8x32xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x8x32xbf16>
    %1 = stablehlo.reshape %0 : (tensor<1x2x8x32xbf16>) -> tensor<2x8x32xbf16>
    return %1 : tensor<2x8x32xbf16>
  }
  func.func private @closed_call_4(%arg0: tensor<2x8x32xbf16>, %arg1: tensor<2x8x32xbf16>, %arg2: tensor<32xbf16>, %arg3: tensor<32xbf16>, %arg4: tensor<64x32xbf16>, %arg5: tensor<32x64xbf16>, %arg6: tensor<32x64xbf16>, %arg7: tensor<32x32xbf16>, %arg8: tensor<32x32xbf16>, %arg9: tensor<32x32xbf16>, %arg10: tensor<32x32xbf16>) -> (tensor<2x8x32xbf16>, tensor<32xbf16>, tensor<32xbf16>, tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<32x64xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>) {
    %0:11 = stablehlo.optimization_barrier %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10, %arg0 : tensor<2x8x32xbf16>, tensor<32xbf16>, tensor<32xbf16>, tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<32x64xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<2x8x32xbf16>
    %1 = stablehlo.convert %0#0 : (tensor<2x8x32xbf16>) -> tensor<2x8x32xf32>
    %2 = chlo.square %1 : tensor<2x8x32xf32> -> tensor<2x8x32xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x8x32xf32>
    %4 = stablehlo.multiply %3, %1 : tensor<2x8x32xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%2 init: %cst_0) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_1 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %8 = stablehlo.divide %6, %7 : tensor<2x8x1xf32>
    %9 = stablehlo.convert %0#0 : (tensor<2x8x32xbf16>) -> tensor<2x8x32xf32>
    %cst_2 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %11 = stablehlo.add %8, %10 : tensor<2x8x1xf32>
    %12 = stablehlo.rsqrt %11 : tensor<2x8x1xf32>
    %13 = stablehlo.divide %12, %11 : tensor<2x8x1xf32>
    %cst_3 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %15 = stablehlo.multiply %14, %13 : tensor<2x8x1xf32>
    %16 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %17 = stablehlo.multiply %9, %16 : tensor<2x8x32xf32>
    %18 = stablehlo.convert %17 : (tensor<2x8x32xf32>) -> tensor<2x8x32xbf16>
    %19 = stablehlo.broadcast_in_dim %0#1, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x8x32xbf16>
    %21 = stablehlo.multiply %18, %20 : tensor<2x8x32xbf16>
    %22 = stablehlo.dot_general %21, %0#8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x32xbf16>) -> tensor<2x8x32xbf16>
    %23 = stablehlo.reshape %22 : (tensor<2x8x32xbf16>) -> tensor<2x8x2x16xbf16>
    %24 = stablehlo.dot_general %21, %0#6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x32xbf16>) -> tensor<2x8x32xbf16>
    %25 = stablehlo.reshape %24 : (tensor<2x8x32xbf16>) -> tensor<2x8x2x16xbf16>
    %26 = stablehlo.dot_general %21, %0#9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x32xbf16>) -> tensor<2x8x32xbf16>
    %27 = stablehlo.reshape %26 : (tensor<2x8x32xbf16>) -> tensor<2x8x2x16xbf16>
    %28 = stablehlo.dot_general %23, %25, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x8x2x16xbf16>, tensor<2x8x2x16xbf16>) -> tensor<2x2x8x8xbf16>
    %29 = stablehlo.convert %28 : (tensor<2x2x8x8xbf16>) -> tensor<2x2x8x8xf32>
    %cst_4 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %30 = stablehlo.reduce(%29 init: %cst_4) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x8xf32>
    %32 = stablehlo.maximum %31, %30 : tensor<2x2x8xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1, 2] : (tensor<2x2x8xf32>) -> tensor<2x2x8x1xf32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 2, 3] : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
    %35 = stablehlo.subtract %29, %34 : tensor<2x2x8x8xf32>
    %36 = stablehlo.exponential %35 : tensor<2x2x8x8xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %37 = stablehlo.reduce(%36 init: %cst_6) applies stablehlo.add across dimensions = [3] : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0, 1, 2] : (tensor<2x2x8xf32>) -> tensor<2x2x8x1xf32>
    %39 = stablehlo.broadcast_in_dim %38, dims = [0, 1, 2, 3] : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
    %40 = stablehlo.divide %36, %39 : tensor<2x2x8x8xf32>
    %41 = stablehlo.multiply %38, %38 : tensor<2x2x8x1xf32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x2x8x1xf32>
    %43 = stablehlo.divide %42, %41 : tensor<2x2x8x1xf32>
    %44 = stablehlo.convert %40 : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xbf16>
    %45 = stablehlo.dot_general %27, %44, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x8x2x16xbf16>, tensor<2x2x8x8xbf16>) -> tensor<2x2x16x8xbf16>
    %46 = stablehlo.transpose %45, dims = [0, 3, 1, 2] : (tensor<2x2x16x8xbf16>) -> tensor<2x8x2x16xbf16>
    %47 = stablehlo.reshape %46 : (tensor<2x8x2x16xbf16>) -> tensor<2x8x32xbf16>
    %48 = stablehlo.dot_general %47, %0#7, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x32xbf16>) -> tensor<2x8x32xbf16>
    %49 = stablehlo.add %0#0, %48 : tensor<2x8x32xbf16>
    %50 = stablehlo.convert %49 : (tensor<2x8x32xbf16>) -> tensor<2x8x32xf32>
    %51 = chlo.square %50 : tensor<2x8x32xf32> -> tensor<2x8x32xf32>
    %cst_8 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %52 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<2x8x32xf32>
    %53 = stablehlo.multiply %52, %50 : tensor<2x8x32xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %54 = stablehlo.reduce(%51 init: %cst_9) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %55 = stablehlo.broadcast_in_dim %54, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_10 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %56 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %57 = stablehlo.divide %55, %56 : tensor<2x8x1xf32>
    %58 = stablehlo.convert %49 : (tensor<2x8x32xbf16>) -> tensor<2x8x32xf32>
    %cst_11 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %60 = stablehlo.add %57, %59 : tensor<2x8x1xf32>
    %61 = stablehlo.rsqrt %60 : tensor<2x8x1xf32>
    %62 = stablehlo.divide %61, %60 : tensor<2x8x1xf32>
    %cst_12 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %63 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %64 = stablehlo.multiply %63, %62 : tensor<2x8x1xf32>
    %65 = stablehlo.broadcast_in_dim %61, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %66 = stablehlo.multiply %58, %65 : tensor<2x8x32xf32>
    %67 = stablehlo.convert %66 : (tensor<2x8x32xf32>) -> tensor<2x8x32xbf16>
    %68 = stablehlo.broadcast_in_dim %0#2, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %69 = stablehlo.broadcast_in_dim %68, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x8x32xbf16>
    %70 = stablehlo.multiply %67, %69 : tensor<2x8x32xbf16>
    %71 = stablehlo.dot_general %70, %0#4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x64xbf16>) -> tensor<2x8x64xbf16>
    %72 = stablehlo.multiply %71, %71 : tensor<2x8x64xbf16>
    %73 = stablehlo.multiply %72, %71 : tensor<2x8x64xbf16>
    %74 = stablehlo.multiply %71, %71 : tensor<2x8x64xbf16>
    %cst_13 = stablehlo.constant dense<3.000000e+00> : tensor<bf16>
    %75 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<bf16>) -> tensor<2x8x64xbf16>
    %76 = stablehlo.multiply %75, %74 : tensor<2x8x64xbf16>
    %cst_14 = stablehlo.constant dense<4.467770e-02> : tensor<bf16>
    %77 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<bf16>) -> tensor<2x8x64xbf16>
    %78 = stablehlo.multiply %77, %73 : tensor<2x8x64xbf16>
    %79 = stablehlo.add %71, %78 : tensor<2x8x64xbf16>
    %cst_15 = stablehlo.constant dense<7.968750e-01> : tensor<bf16>
    %80 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<bf16>) -> tensor<2x8x64xbf16>
    %81 = stablehlo.multiply %80, %79 : tensor<2x8x64xbf16>
    %82 = stablehlo.tanh %81 : tensor<2x8x64xbf16>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %83 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<bf16>) -> tensor<2x8x64xbf16>
    %84 = stablehlo.subtract %83, %82 : tensor<2x8x64xbf16>
    %cst_17 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %85 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<bf16>) -> tensor<2x8x64xbf16>
    %86 = stablehlo.add %85, %82 : tensor<2x8x64xbf16>
    %cst_18 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %87 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<bf16>) -> tensor<2x8x64xbf16>
    %88 = stablehlo.multiply %87, %86 : tensor<2x8x64xbf16>
    %89 = stablehlo.multiply %71, %88 : tensor<2x8x64xbf16>
    %90 = stablehlo.dot_general %70, %0#5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x64xbf16>) -> tensor<2x8x64xbf16>
    %91 = stablehlo.multiply %89, %90 : tensor<2x8x64xbf16>
    %92 = stablehlo.dot_general %0#10, %91, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<2x8x64xbf16>) -> tensor<32x64xbf16>
    %93 = stablehlo.transpose %92, dims = [1, 0] : (tensor<32x64xbf16>) -> tensor<64x32xbf16>
    %94 = stablehlo.dot_general %0#10, %0#3, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<64x32xbf16>) -> tensor<2x8x64xbf16>
    %95 = stablehlo.multiply %89, %94 : tensor<2x8x64xbf16>
    %96 = stablehlo.multiply %94, %90 : tensor<2x8x64xbf16>
    %97 = stablehlo.dot_general %95, %70, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x64xbf16>, tensor<2x8x32xbf16>) -> tensor<64x32xbf16>
    %98 = stablehlo.transpose %97, dims = [1, 0] : (tensor<64x32xbf16>) -> tensor<32x64xbf16>
    %99 = stablehlo.dot_general %95, %0#5, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x64xbf16>, tensor<32x64xbf16>) -> tensor<2x8x32xbf16>
    %100 = stablehlo.multiply %71, %96 : tensor<2x8x64xbf16>
    %101 = stablehlo.multiply %96, %88 : tensor<2x8x64xbf16>
    %cst_19 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %102 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<bf16>) -> tensor<2x8x64xbf16>
    %103 = stablehlo.multiply %102, %100 : tensor<2x8x64xbf16>
    %104 = stablehlo.multiply %103, %84 : tensor<2x8x64xbf16>
    %105 = stablehlo.multiply %104, %82 : tensor<2x8x64xbf16>
    %106 = stablehlo.add %104, %105 : tensor<2x8x64xbf16>
    %cst_20 = stablehlo.constant dense<7.968750e-01> : tensor<bf16>
    %107 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<bf16>) -> tensor<2x8x64xbf16>
    %108 = stablehlo.multiply %107, %106 : tensor<2x8x64xbf16>
    %109 = stablehlo.add %101, %108 : tensor<2x8x64xbf16>
    %cst_21 = stablehlo.constant dense<4.467770e-02> : tensor<bf16>
    %110 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<bf16>) -> tensor<2x8x64xbf16>
    %111 = stablehlo.multiply %110, %108 : tensor<2x8x64xbf16>
    %112 = stablehlo.multiply %111, %76 : tensor<2x8x64xbf16>
    %113 = stablehlo.add %109, %112 : tensor<2x8x64xbf16>
    %114 = stablehlo.dot_general %113, %70, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x64xbf16>, tensor<2x8x32xbf16>) -> tensor<64x32xbf16>
    %115 = stablehlo.transpose %114, dims = [1, 0] : (tensor<64x32xbf16>) -> tensor<32x64xbf16>
    %116 = stablehlo.dot_general %113, %0#4, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x64xbf16>, tensor<32x64xbf16>) -> tensor<2x8x32xbf16>
    %117 = stablehlo.add %99, %116 : tensor<2x8x32xbf16>
    %118 = stablehlo.multiply %67, %117 : tensor<2x8x32xbf16>
    %cst_22 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %119 = stablehlo.reduce(%118 init: %cst_22) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x8x32xbf16>, tensor<bf16>) -> tensor<32xbf16>
    %120 = stablehlo.reshape %119 : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %121 = stablehlo.broadcast_in_dim %68, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x8x32xbf16>
    %122 = stablehlo.multiply %117, %121 : tensor<2x8x32xbf16>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %123 = stablehlo.reduce(%120 init: %cst_23) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xbf16>, tensor<bf16>) -> tensor<32xbf16>
    %124 = stablehlo.convert %122 : (tensor<2x8x32xbf16>) -> tensor<2x8x32xf32>
    %125 = stablehlo.multiply %58, %124 : tensor<2x8x32xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %126 = stablehlo.reduce(%125 init: %cst_24) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %127 = stablehlo.reshape %126 : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %128 = stablehlo.broadcast_in_dim %61, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %129 = stablehlo.multiply %124, %128 : tensor<2x8x32xf32>
    %130 = stablehlo.multiply %127, %64 : tensor<2x8x1xf32>
    %131 = stablehlo.convert %129 : (tensor<2x8x32xf32>) -> tensor<2x8x32xbf16>
    %132 = stablehlo.add %0#10, %131 : tensor<2x8x32xbf16>
    %cst_25 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %133 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %134 = stablehlo.divide %130, %133 : tensor<2x8x1xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %135 = stablehlo.reduce(%134 init: %cst_26) applies stablehlo.add across dimensions = [2] : (tensor<2x8x1xf32>, tensor<f32>) -> tensor<2x8xf32>
    %136 = stablehlo.broadcast_in_dim %135, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x32xf32>
    %137 = stablehlo.multiply %136, %53 : tensor<2x8x32xf32>
    %138 = stablehlo.convert %137 : (tensor<2x8x32xf32>) -> tensor<2x8x32xbf16>
    %139 = stablehlo.add %132, %138 : tensor<2x8x32xbf16>
    %140 = stablehlo.dot_general %139, %47, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<2x8x32xbf16>) -> tensor<32x32xbf16>
    %141 = stablehlo.transpose %140, dims = [1, 0] : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %142 = stablehlo.dot_general %139, %0#7, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x32xbf16>) -> tensor<2x8x32xbf16>
    %143 = stablehlo.reshape %142 : (tensor<2x8x32xbf16>) -> tensor<2x8x2x16xbf16>
    %144 = stablehlo.transpose %143, dims = [0, 2, 3, 1] : (tensor<2x8x2x16xbf16>) -> tensor<2x2x16x8xbf16>
    %145 = stablehlo.dot_general %144, %27, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x2x16x8xbf16>, tensor<2x8x2x16xbf16>) -> tensor<2x2x8x8xbf16>
    %146 = stablehlo.dot_general %144, %44, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x2x16x8xbf16>, tensor<2x2x8x8xbf16>) -> tensor<2x2x16x8xbf16>
    %147 = stablehlo.transpose %146, dims = [0, 3, 1, 2] : (tensor<2x2x16x8xbf16>) -> tensor<2x8x2x16xbf16>
    %148 = stablehlo.convert %145 : (tensor<2x2x8x8xbf16>) -> tensor<2x2x8x8xf32>
    %149 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2, 3] : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
    %150 = stablehlo.multiply %148, %149 : tensor<2x2x8x8xf32>
    %151 = stablehlo.multiply %150, %36 : tensor<2x2x8x8xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %152 = stablehlo.reduce(%151 init: %cst_27) applies stablehlo.add across dimensions = [3] : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %153 = stablehlo.reshape %152 : (tensor<2x2x8xf32>) -> tensor<2x2x8x1xf32>
    %154 = stablehlo.negate %153 : tensor<2x2x8x1xf32>
    %155 = stablehlo.broadcast_in_dim %38, dims = [0, 1, 2, 3] : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
    %156 = stablehlo.divide %148, %155 : tensor<2x2x8x8xf32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %157 = stablehlo.reduce(%154 init: %cst_28) applies stablehlo.add across dimensions = [3] : (tensor<2x2x8x1xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %158 = stablehlo.broadcast_in_dim %157, dims = [0, 1, 2] : (tensor<2x2x8xf32>) -> tensor<2x2x8x8xf32>
    %159 = stablehlo.add %156, %158 : tensor<2x2x8x8xf32>
    %160 = stablehlo.multiply %159, %36 : tensor<2x2x8x8xf32>
    %161 = stablehlo.convert %160 : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xbf16>
    %162 = stablehlo.dot_general %161, %23, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x2x8x8xbf16>, tensor<2x8x2x16xbf16>) -> tensor<2x2x8x16xbf16>
    %163 = stablehlo.transpose %162, dims = [0, 2, 1, 3] : (tensor<2x2x8x16xbf16>) -> tensor<2x8x2x16xbf16>
    %164 = stablehlo.dot_general %161, %25, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x2x8x8xbf16>, tensor<2x8x2x16xbf16>) -> tensor<2x2x8x16xbf16>
    %165 = stablehlo.transpose %164, dims = [0, 2, 1, 3] : (tensor<2x2x8x16xbf16>) -> tensor<2x8x2x16xbf16>
    %166 = stablehlo.reshape %147 : (tensor<2x8x2x16xbf16>) -> tensor<2x8x32xbf16>
    %167 = stablehlo.dot_general %166, %21, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<2x8x32xbf16>) -> tensor<32x32xbf16>
    %168 = stablehlo.transpose %167, dims = [1, 0] : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %169 = stablehlo.dot_general %166, %0#9, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x32xbf16>) -> tensor<2x8x32xbf16>
    %170 = stablehlo.reshape %163 : (tensor<2x8x2x16xbf16>) -> tensor<2x8x32xbf16>
    %171 = stablehlo.dot_general %170, %21, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<2x8x32xbf16>) -> tensor<32x32xbf16>
    %172 = stablehlo.transpose %171, dims = [1, 0] : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %173 = stablehlo.dot_general %170, %0#6, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x32xbf16>) -> tensor<2x8x32xbf16>
    %174 = stablehlo.add %169, %173 : tensor<2x8x32xbf16>
    %175 = stablehlo.reshape %165 : (tensor<2x8x2x16xbf16>) -> tensor<2x8x32xbf16>
    %176 = stablehlo.dot_general %175, %21, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<2x8x32xbf16>) -> tensor<32x32xbf16>
    %177 = stablehlo.transpose %176, dims = [1, 0] : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %178 = stablehlo.dot_general %175, %0#8, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x32xbf16>) -> tensor<2x8x32xbf16>
    %179 = stablehlo.add %174, %178 : tensor<2x8x32xbf16>
    %180 = stablehlo.multiply %18, %179 : tensor<2x8x32xbf16>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %181 = stablehlo.reduce(%180 init: %cst_29) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x8x32xbf16>, tensor<bf16>) -> tensor<32xbf16>
    %182 = stablehlo.reshape %181 : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %183 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x8x32xbf16>
    %184 = stablehlo.multiply %179, %183 : tensor<2x8x32xbf16>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %185 = stablehlo.reduce(%182 init: %cst_30) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xbf16>, tensor<bf16>) -> tensor<32xbf16>
    %186 = stablehlo.convert %184 : (tensor<2x8x32xbf16>) -> tensor<2x8x32xf32>
    %187 = stablehlo.multiply %9, %186 : tensor<2x8x32xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %188 = stablehlo.reduce(%187 init: %cst_31) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %189 = stablehlo.reshape %188 : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %190 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %191 = stablehlo.multiply %186, %190 : tensor<2x8x32xf32>
    %192 = stablehlo.multiply %189, %15 : tensor<2x8x1xf32>
    %193 = stablehlo.convert %191 : (tensor<2x8x32xf32>) -> tensor<2x8x32xbf16>
    %194 = stablehlo.add %139, %193 : tensor<2x8x32xbf16>
    %cst_32 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %195 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %196 = stablehlo.divide %192, %195 : tensor<2x8x1xf32>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %197 = stablehlo.reduce(%196 init: %cst_33) applies stablehlo.add across dimensions = [2] : (tensor<2x8x1xf32>, tensor<f32>) -> tensor<2x8xf32>
    %198 = stablehlo.broadcast_in_dim %197, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x32xf32>
    %199 = stablehlo.multiply %198, %4 : tensor<2x8x32xf32>
    %200 = stablehlo.convert %199 : (tensor<2x8x32xf32>) -> tensor<2x8x32xbf16>
    %201 = stablehlo.add %194, %200 : tensor<2x8x32xbf16>
    return %201, %185, %123, %93, %115, %98, %172, %141, %177, %168 : tensor<2x8x32xbf16>, tensor<32xbf16>, tensor<32xbf16>, tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<32x64xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>
  }
  func.func private @dynamic_update_index_in_dim_5(%arg0: tensor<2x32xbf16>, %arg1: tensor<32xbf16>, %arg2: tensor<i32>) -> tensor<2x32xbf16> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<32xbf16>) -> tensor<1x32xbf16>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<2x32xbf16>, tensor<1x32xbf16>, tensor<i32>, tensor<i32>) -> tensor<2x32xbf16>
    return %1 : tensor<2x32xbf16>
  }
  func.func private @dynamic_update_index_in_dim_6(%arg0: tensor<2x64x32xbf16>, %arg1: tensor<64x32xbf16>, %arg2: tensor<i32>) -> tensor<2x64x32xbf16> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<64x32xbf16>) -> tensor<1x64x32xbf16>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<2x64x32xbf16>, tensor<1x64x32xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x64x32xbf16>
    return %1 : tensor<2x64x32xbf16>
  }
  func.func private @dynamic_update_index_in_dim_7(%arg0: tensor<2x32x64xbf16>, %arg1: tensor<32x64xbf16>, %arg2: tensor<i32>) -> tensor<2x32x64xbf16> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<32x64xbf16>) -> tensor<1x32x64xbf16>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<2x32x64xbf16>, tensor<1x32x64xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x32x64xbf16>
    return %1 : tensor<2x32x64xbf16>
  }
  func.func private @dynamic_update_index_in_dim_8(%arg0: tensor<2x32x32xbf16>, %arg1: tensor<32x32xbf16>, %arg2: tensor<i32>) -> tensor<2x32x32xbf16> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<32x32xbf16>) -> tensor<1x32x32xbf16>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<2x32x32xbf16>, tensor<1x32x32xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x32x32xbf16>
    return %1 : tensor<2x32x32xbf16>
  }
}
