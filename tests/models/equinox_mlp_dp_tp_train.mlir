module @jit_step attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg1: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg2: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg3: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg4: tensor<8x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg5: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg6: tensor<i32> {sdy.sharding = #sdy.sharding<@mesh, []>}, %arg7: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg8: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg9: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg10: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg11: tensor<8x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg12: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg13: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg14: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg15: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg16: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg17: tensor<8x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg18: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg19: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg20: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<64x16xf32> {jax.result_info = "result[0].layers[0].weight"}, tensor<64xf32> {jax.result_info = "result[0].layers[0].bias"}, tensor<64x64xf32> {jax.result_info = "result[0].layers[1].weight"}, tensor<64xf32> {jax.result_info = "result[0].layers[1].bias"}, tensor<8x64xf32> {jax.result_info = "result[0].layers[2].weight"}, tensor<8xf32> {jax.result_info = "result[0].layers[2].bias"}, tensor<i32> {jax.result_info = "result[1][0].count"}, tensor<64x16xf32> {jax.result_info = "result[1][0].mu.layers[0].weight"}, tensor<64xf32> {jax.result_info = "result[1][0].mu.layers[0].bias"}, tensor<64x64xf32> {jax.result_info = "result[1][0].mu.layers[1].weight"}, tensor<64xf32> {jax.result_info = "result[1][0].mu.layers[1].bias"}, tensor<8x64xf32> {jax.result_info = "result[1][0].mu.layers[2].weight"}, tensor<8xf32> {jax.result_info = "result[1][0].mu.layers[2].bias"}, tensor<64x16xf32> {jax.result_info = "result[1][0].nu.layers[0].weight"}, tensor<64xf32> {jax.result_info = "result[1][0].nu.layers[0].bias"}, tensor<64x64xf32> {jax.result_info = "result[1][0].nu.layers[1].weight"}, tensor<64xf32> {jax.result_info = "result[1][0].nu.layers[1].bias"}, tensor<8x64xf32> {jax.result_info = "result[1][0].nu.layers[2].weight"}, tensor<8xf32> {jax.result_info = "result[1][0].nu.layers[2].bias"}, tensor<f32> {jax.result_info = "result[2]"}) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"model"}, {}]> : tensor<64x16xf32>
    %1 = sdy.sharding_constraint %arg1 <@mesh, [{}]> : tensor<64xf32>
    %2 = sdy.sharding_constraint %arg2 <@mesh, [{"model"}, {}]> : tensor<64x64xf32>
    %3 = sdy.sharding_constraint %arg3 <@mesh, [{}]> : tensor<64xf32>
    %4 = sdy.sharding_constraint %arg4 <@mesh, [{}, {"model"}]> : tensor<8x64xf32>
    %5 = sdy.sharding_constraint %arg5 <@mesh, [{}]> : tensor<8xf32>
    %6 = sdy.sharding_constraint %arg19 <@mesh, [{"data"}, {}]> : tensor<16x16xf32>
    %7 = stablehlo.dot_general %0, %6, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x16xf32>, tensor<16x16xf32>) -> tensor<64x16xf32>
    %8 = stablehlo.transpose %7, dims = [1, 0] : (tensor<64x16xf32>) -> tensor<16x64xf32>
    %9 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %11 = stablehlo.add %8, %10 : tensor<16x64xf32>
    %12 = stablehlo.tanh %11 : tensor<16x64xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %14 = stablehlo.subtract %13, %12 : tensor<16x64xf32>
    %15 = stablehlo.dot_general %2, %12, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x64xf32>, tensor<16x64xf32>) -> tensor<64x16xf32>
    %16 = stablehlo.transpose %15, dims = [1, 0] : (tensor<64x16xf32>) -> tensor<16x64xf32>
    %17 = stablehlo.broadcast_in_dim %3, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %19 = stablehlo.add %16, %18 : tensor<16x64xf32>
    %20 = stablehlo.tanh %19 : tensor<16x64xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %22 = stablehlo.subtract %21, %20 : tensor<16x64xf32>
    %23 = stablehlo.dot_general %4, %20, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<16x64xf32>) -> tensor<8x16xf32>
    %24 = stablehlo.transpose %23, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
    %25 = stablehlo.broadcast_in_dim %5, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<16x8xf32>
    %27 = stablehlo.add %24, %26 : tensor<16x8xf32>
    %28 = stablehlo.subtract %27, %arg20 : tensor<16x8xf32>
    %29 = stablehlo.multiply %28, %28 : tensor<16x8xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %31 = stablehlo.multiply %30, %28 : tensor<16x8xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %32 = stablehlo.reduce(%29 init: %cst_2) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x8xf32>, tensor<f32>) -> tensor<f32>
    %cst_3 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %33 = stablehlo.divide %32, %cst_3 : tensor<f32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_5 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %34 = stablehlo.divide %cst_4, %cst_5 : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %34, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %36 = stablehlo.multiply %35, %31 : tensor<16x8xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %37 = stablehlo.reduce(%36 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<16x8xf32>, tensor<f32>) -> tensor<8xf32>
    %38 = stablehlo.reshape %37 : (tensor<8xf32>) -> tensor<1x8xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %39 = stablehlo.reduce(%38 init: %cst_7) applies stablehlo.add across dimensions = [0] : (tensor<1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %40 = stablehlo.transpose %36, dims = [1, 0] : (tensor<16x8xf32>) -> tensor<8x16xf32>
    %41 = stablehlo.dot_general %40, %4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<8x64xf32>) -> tensor<16x64xf32>
    %42 = stablehlo.dot_general %40, %20, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x64xf32>) -> tensor<8x64xf32>
    %43 = stablehlo.multiply %41, %22 : tensor<16x64xf32>
    %44 = stablehlo.multiply %43, %20 : tensor<16x64xf32>
    %45 = stablehlo.add %43, %44 : tensor<16x64xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %46 = stablehlo.reduce(%45 init: %cst_8) applies stablehlo.add across dimensions = [0] : (tensor<16x64xf32>, tensor<f32>) -> tensor<64xf32>
    %47 = stablehlo.reshape %46 : (tensor<64xf32>) -> tensor<1x64xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %48 = stablehlo.reduce(%47 init: %cst_9) applies stablehlo.add across dimensions = [0] : (tensor<1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %49 = stablehlo.transpose %45, dims = [1, 0] : (tensor<16x64xf32>) -> tensor<64x16xf32>
    %50 = stablehlo.dot_general %49, %2, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x16xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %51 = stablehlo.dot_general %49, %12, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x16xf32>, tensor<16x64xf32>) -> tensor<64x64xf32>
    %52 = stablehlo.multiply %50, %14 : tensor<16x64xf32>
    %53 = stablehlo.multiply %52, %12 : tensor<16x64xf32>
    %54 = stablehlo.add %52, %53 : tensor<16x64xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %55 = stablehlo.reduce(%54 init: %cst_10) applies stablehlo.add across dimensions = [0] : (tensor<16x64xf32>, tensor<f32>) -> tensor<64xf32>
    %56 = stablehlo.reshape %55 : (tensor<64xf32>) -> tensor<1x64xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %57 = stablehlo.reduce(%56 init: %cst_11) applies stablehlo.add across dimensions = [0] : (tensor<1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %58 = stablehlo.transpose %54, dims = [1, 0] : (tensor<16x64xf32>) -> tensor<64x16xf32>
    %59 = stablehlo.dot_general %58, %6, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x16xf32>, tensor<16x16xf32>) -> tensor<64x16xf32>
    %cst_12 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %60 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %61 = stablehlo.multiply %60, %59 : tensor<64x16xf32>
    %cst_13 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %62 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %63 = stablehlo.multiply %62, %arg7 : tensor<64x16xf32>
    %64 = stablehlo.add %61, %63 : tensor<64x16xf32>
    %cst_14 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %65 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %66 = stablehlo.multiply %65, %57 : tensor<64xf32>
    %cst_15 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %67 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %68 = stablehlo.multiply %67, %arg8 : tensor<64xf32>
    %69 = stablehlo.add %66, %68 : tensor<64xf32>
    %cst_16 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %71 = stablehlo.multiply %70, %51 : tensor<64x64xf32>
    %cst_17 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %72 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %73 = stablehlo.multiply %72, %arg9 : tensor<64x64xf32>
    %74 = stablehlo.add %71, %73 : tensor<64x64xf32>
    %cst_18 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %75 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %76 = stablehlo.multiply %75, %48 : tensor<64xf32>
    %cst_19 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %77 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %78 = stablehlo.multiply %77, %arg10 : tensor<64xf32>
    %79 = stablehlo.add %76, %78 : tensor<64xf32>
    %cst_20 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %80 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %81 = stablehlo.multiply %80, %42 : tensor<8x64xf32>
    %cst_21 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %82 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %83 = stablehlo.multiply %82, %arg11 : tensor<8x64xf32>
    %84 = stablehlo.add %81, %83 : tensor<8x64xf32>
    %cst_22 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %85 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %86 = stablehlo.multiply %85, %39 : tensor<8xf32>
    %cst_23 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %87 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %88 = stablehlo.multiply %87, %arg12 : tensor<8xf32>
    %89 = stablehlo.add %86, %88 : tensor<8xf32>
    %90 = stablehlo.multiply %59, %59 : tensor<64x16xf32>
    %cst_24 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %91 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %92 = stablehlo.multiply %91, %90 : tensor<64x16xf32>
    %cst_25 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %93 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %94 = stablehlo.multiply %93, %arg13 : tensor<64x16xf32>
    %95 = stablehlo.add %92, %94 : tensor<64x16xf32>
    %96 = stablehlo.multiply %57, %57 : tensor<64xf32>
    %cst_26 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %97 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %98 = stablehlo.multiply %97, %96 : tensor<64xf32>
    %cst_27 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %99 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %100 = stablehlo.multiply %99, %arg14 : tensor<64xf32>
    %101 = stablehlo.add %98, %100 : tensor<64xf32>
    %102 = stablehlo.multiply %51, %51 : tensor<64x64xf32>
    %cst_28 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %103 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %104 = stablehlo.multiply %103, %102 : tensor<64x64xf32>
    %cst_29 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %105 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %106 = stablehlo.multiply %105, %arg15 : tensor<64x64xf32>
    %107 = stablehlo.add %104, %106 : tensor<64x64xf32>
    %108 = stablehlo.multiply %48, %48 : tensor<64xf32>
    %cst_30 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %109 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %110 = stablehlo.multiply %109, %108 : tensor<64xf32>
    %cst_31 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %111 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %112 = stablehlo.multiply %111, %arg16 : tensor<64xf32>
    %113 = stablehlo.add %110, %112 : tensor<64xf32>
    %114 = stablehlo.multiply %42, %42 : tensor<8x64xf32>
    %cst_32 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %115 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %116 = stablehlo.multiply %115, %114 : tensor<8x64xf32>
    %cst_33 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %117 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %118 = stablehlo.multiply %117, %arg17 : tensor<8x64xf32>
    %119 = stablehlo.add %116, %118 : tensor<8x64xf32>
    %120 = stablehlo.multiply %39, %39 : tensor<8xf32>
    %cst_34 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %121 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %122 = stablehlo.multiply %121, %120 : tensor<8xf32>
    %cst_35 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %123 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %124 = stablehlo.multiply %123, %arg18 : tensor<8xf32>
    %125 = stablehlo.add %122, %124 : tensor<8xf32>
    %c = stablehlo.constant dense<2147483647> : tensor<i32>
    %126 = stablehlo.compare LT, %arg6, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_36 = stablehlo.constant dense<1> : tensor<i32>
    %127 = stablehlo.add %arg6, %c_36 : tensor<i32>
    %c_37 = stablehlo.constant dense<2147483647> : tensor<i32>
    %128 = call @_where(%126, %127, %c_37) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %cst_38 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %129 = stablehlo.convert %128 : (tensor<i32>) -> tensor<f32>
    %130 = stablehlo.power %cst_38, %129 : tensor<f32>
    %cst_39 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %131 = stablehlo.subtract %cst_39, %130 : tensor<f32>
    %132 = stablehlo.broadcast_in_dim %131, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %133 = stablehlo.divide %64, %132 : tensor<64x16xf32>
    %134 = stablehlo.broadcast_in_dim %131, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %135 = stablehlo.divide %69, %134 : tensor<64xf32>
    %136 = stablehlo.broadcast_in_dim %131, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %137 = stablehlo.divide %74, %136 : tensor<64x64xf32>
    %138 = stablehlo.broadcast_in_dim %131, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %139 = stablehlo.divide %79, %138 : tensor<64xf32>
    %140 = stablehlo.broadcast_in_dim %131, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %141 = stablehlo.divide %84, %140 : tensor<8x64xf32>
    %142 = stablehlo.broadcast_in_dim %131, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %143 = stablehlo.divide %89, %142 : tensor<8xf32>
    %cst_40 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %144 = stablehlo.convert %128 : (tensor<i32>) -> tensor<f32>
    %145 = stablehlo.power %cst_40, %144 : tensor<f32>
    %cst_41 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %146 = stablehlo.subtract %cst_41, %145 : tensor<f32>
    %147 = stablehlo.broadcast_in_dim %146, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %148 = stablehlo.divide %95, %147 : tensor<64x16xf32>
    %149 = stablehlo.broadcast_in_dim %146, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %150 = stablehlo.divide %101, %149 : tensor<64xf32>
    %151 = stablehlo.broadcast_in_dim %146, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %152 = stablehlo.divide %107, %151 : tensor<64x64xf32>
    %153 = stablehlo.broadcast_in_dim %146, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %154 = stablehlo.divide %113, %153 : tensor<64xf32>
    %155 = stablehlo.broadcast_in_dim %146, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %156 = stablehlo.divide %119, %155 : tensor<8x64xf32>
    %157 = stablehlo.broadcast_in_dim %146, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %158 = stablehlo.divide %125, %157 : tensor<8xf32>
    %cst_42 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %159 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %160 = stablehlo.add %148, %159 : tensor<64x16xf32>
    %161 = stablehlo.sqrt %160 : tensor<64x16xf32>
    %cst_43 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %162 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %163 = stablehlo.add %161, %162 : tensor<64x16xf32>
    %164 = stablehlo.divide %133, %163 : tensor<64x16xf32>
    %cst_44 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %165 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %166 = stablehlo.add %150, %165 : tensor<64xf32>
    %167 = stablehlo.sqrt %166 : tensor<64xf32>
    %cst_45 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %168 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %169 = stablehlo.add %167, %168 : tensor<64xf32>
    %170 = stablehlo.divide %135, %169 : tensor<64xf32>
    %cst_46 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %171 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %172 = stablehlo.add %152, %171 : tensor<64x64xf32>
    %173 = stablehlo.sqrt %172 : tensor<64x64xf32>
    %cst_47 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %174 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %175 = stablehlo.add %173, %174 : tensor<64x64xf32>
    %176 = stablehlo.divide %137, %175 : tensor<64x64xf32>
    %cst_48 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %177 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %178 = stablehlo.add %154, %177 : tensor<64xf32>
    %179 = stablehlo.sqrt %178 : tensor<64xf32>
    %cst_49 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %180 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %181 = stablehlo.add %179, %180 : tensor<64xf32>
    %182 = stablehlo.divide %139, %181 : tensor<64xf32>
    %cst_50 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %183 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %184 = stablehlo.add %156, %183 : tensor<8x64xf32>
    %185 = stablehlo.sqrt %184 : tensor<8x64xf32>
    %cst_51 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %186 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %187 = stablehlo.add %185, %186 : tensor<8x64xf32>
    %188 = stablehlo.divide %141, %187 : tensor<8x64xf32>
    %cst_52 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %189 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %190 = stablehlo.add %158, %189 : tensor<8xf32>
    %191 = stablehlo.sqrt %190 : tensor<8xf32>
    %cst_53 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %192 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %193 = stablehlo.add %191, %192 : tensor<8xf32>
    %194 = stablehlo.divide %143, %193 : tensor<8xf32>
    %cst_54 = stablehlo.constant dense<-0.00999999977> : tensor<f32>
    %195 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %196 = stablehlo.multiply %195, %164 : tensor<64x16xf32>
    %cst_55 = stablehlo.constant dense<-0.00999999977> : tensor<f32>
    %197 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %198 = stablehlo.multiply %197, %170 : tensor<64xf32>
    %cst_56 = stablehlo.constant dense<-0.00999999977> : tensor<f32>
    %199 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %200 = stablehlo.multiply %199, %176 : tensor<64x64xf32>
    %cst_57 = stablehlo.constant dense<-0.00999999977> : tensor<f32>
    %201 = stablehlo.broadcast_in_dim %cst_57, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %202 = stablehlo.multiply %201, %182 : tensor<64xf32>
    %cst_58 = stablehlo.constant dense<-0.00999999977> : tensor<f32>
    %203 = stablehlo.broadcast_in_dim %cst_58, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %204 = stablehlo.multiply %203, %188 : tensor<8x64xf32>
    %cst_59 = stablehlo.constant dense<-0.00999999977> : tensor<f32>
    %205 = stablehlo.broadcast_in_dim %cst_59, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %206 = stablehlo.multiply %205, %194 : tensor<8xf32>
    %207 = stablehlo.add %0, %196 : tensor<64x16xf32>
    %208 = stablehlo.add %1, %198 : tensor<64xf32>
    %209 = stablehlo.add %2, %200 : tensor<64x64xf32>
    %210 = stablehlo.add %3, %202 : tensor<64xf32>
    %211 = stablehlo.add %4, %204 : tensor<8x64xf32>
    %212 = stablehlo.add %5, %206 : tensor<8xf32>
    %213 = sdy.sharding_constraint %207 <@mesh, [{"model"}, {}]> : tensor<64x16xf32>
    %214 = sdy.sharding_constraint %208 <@mesh, [{}]> : tensor<64xf32>
    %215 = sdy.sharding_constraint %209 <@mesh, [{"model"}, {}]> : tensor<64x64xf32>
    %216 = sdy.sharding_constraint %210 <@mesh, [{}]> : tensor<64xf32>
    %217 = sdy.sharding_constraint %211 <@mesh, [{}, {"model"}]> : tensor<8x64xf32>
    %218 = sdy.sharding_constraint %212 <@mesh, [{}]> : tensor<8xf32>
    return %213, %214, %215, %216, %217, %218, %128, %64, %69, %74, %79, %84, %89, %95, %101, %107, %113, %119, %125, %33 : tensor<64x16xf32>, tensor<64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<8x64xf32>, tensor<8xf32>, tensor<i32>, tensor<64x16xf32>, tensor<64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<8x64xf32>, tensor<8xf32>, tensor<64x16xf32>, tensor<64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<8x64xf32>, tensor<8xf32>, tensor<f32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
