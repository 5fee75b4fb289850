module @jit_grad_fn attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg1: tensor<32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg2: tensor<32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg3: tensor<32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg4: tensor<32x64xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg5: tensor<64x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg6: tensor<32x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg7: tensor<32x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg8: tensor<32x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg9: tensor<32x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg10: tensor<2x8x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}) -> (tensor<32xbf16> {jax.result_info = "result['ln1_b']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xbf16> {jax.result_info = "result['ln1_g']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xbf16> {jax.result_info = "result['ln2_b']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32xbf16> {jax.result_info = "result['ln2_g']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x64xbf16> {jax.result_info = "result['w1']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, tensor<64x32xbf16> {jax.result_info = "result['w2']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, tensor<32x32xbf16> {jax.result_info = "result['wk']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, tensor<32x32xbf16> {jax.result_info = "result['wo']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, tensor<32x32xbf16> {jax.result_info = "result['wq']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, tensor<32x32xbf16> {jax.result_info = "result['wv']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) {
    %0 = stablehlo.convert %arg10 : (tensor<2x8x32xbf16>) -> tensor<2x8x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %4 = stablehlo.divide %2, %3 : tensor<2x8x1xf32>
    %5 = stablehlo.convert %4 : (tensor<2x8x1xf32>) -> tensor<2x8x1xbf16>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1, 2] : (tensor<2x8x1xbf16>) -> tensor<2x8x32xbf16>
    %7 = stablehlo.subtract %arg10, %6 : tensor<2x8x32xbf16>
    %8 = chlo.square %7 : tensor<2x8x32xbf16> -> tensor<2x8x32xbf16>
    %9 = stablehlo.convert %8 : (tensor<2x8x32xbf16>) -> tensor<2x8x32xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.reduce(%9 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_2 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %13 = stablehlo.divide %11, %12 : tensor<2x8x1xf32>
    %14 = stablehlo.convert %13 : (tensor<2x8x1xf32>) -> tensor<2x8x1xbf16>
    %15 = stablehlo.broadcast_in_dim %5, dims = [0, 1, 2] : (tensor<2x8x1xbf16>) -> tensor<2x8x32xbf16>
    %16 = stablehlo.subtract %arg10, %15 : tensor<2x8x32xbf16>
    %cst_3 = stablehlo.constant dense<1.001360e-05> : tensor<bf16>
    %17 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<bf16>) -> tensor<2x8x1xbf16>
    %18 = stablehlo.add %14, %17 : tensor<2x8x1xbf16>
    %19 = stablehlo.rsqrt %18 : tensor<2x8x1xbf16>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2] : (tensor<2x8x1xbf16>) -> tensor<2x8x32xbf16>
    %21 = stablehlo.multiply %16, %20 : tensor<2x8x32xbf16>
    %22 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %23 = stablehlo.broadcast_in_dim %22, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x8x32xbf16>
    %24 = stablehlo.multiply %21, %23 : tensor<2x8x32xbf16>
    %25 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x8x32xbf16>
    %27 = stablehlo.add %24, %26 : tensor<2x8x32xbf16>
    %28 = stablehlo.dot_general %27, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x32xbf16>) -> tensor<2x8x32xbf16>
    %29 = stablehlo.reshape %28 : (tensor<2x8x32xbf16>) -> tensor<2x8x2x16xbf16>
    %30 = stablehlo.dot_general %27, %arg6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x32xbf16>) -> tensor<2x8x32xbf16>
    %31 = stablehlo.reshape %30 : (tensor<2x8x32xbf16>) -> tensor<2x8x2x16xbf16>
    %32 = stablehlo.dot_general %27, %arg9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x32xbf16>) -> tensor<2x8x32xbf16>
    %33 = stablehlo.reshape %32 : (tensor<2x8x32xbf16>) -> tensor<2x8x2x16xbf16>
    %34 = stablehlo.dot_general %29, %31, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x8x2x16xbf16>, tensor<2x8x2x16xbf16>) -> tensor<2x2x8x8xbf16>
    %35 = stablehlo.convert %34 : (tensor<2x2x8x8xbf16>) -> tensor<2x2x8x8xf32>
    %cst_4 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x2x8x8xf32>
    %37 = stablehlo.divide %35, %36 : tensor<2x2x8x8xf32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %38 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<8x8xi1>
    %39 = call @tril(%38) : (tensor<8x8xi1>) -> tensor<8x8xi1>
    %cst_5 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %40:2 = call @_where(%39, %37, %cst_5) : (tensor<8x8xi1>, tensor<2x2x8x8xf32>, tensor<f32>) -> (tensor<2x2x8x8xf32>, tensor<2x2x8x8xi1>)
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %41 = stablehlo.reduce(%40#0 init: %cst_6) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x2x8xf32>
    %43 = stablehlo.maximum %42, %41 : tensor<2x2x8xf32>
    %44 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2] : (tensor<2x2x8xf32>) -> tensor<2x2x8x1xf32>
    %45 = stablehlo.broadcast_in_dim %44, dims = [0, 1, 2, 3] : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
    %46 = stablehlo.subtract %40#0, %45 : tensor<2x2x8x8xf32>
    %47 = stablehlo.exponential %46 : tensor<2x2x8x8xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %48 = stablehlo.reduce(%47 init: %cst_8) applies stablehlo.add across dimensions = [3] : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %49 = stablehlo.broadcast_in_dim %48, dims = [0, 1, 2] : (tensor<2x2x8xf32>) -> tensor<2x2x8x1xf32>
    %50 = stablehlo.broadcast_in_dim %49, dims = [0, 1, 2, 3] : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
    %51 = stablehlo.divide %47, %50 : tensor<2x2x8x8xf32>
    %52 = stablehlo.multiply %49, %49 : tensor<2x2x8x1xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<2x2x8x1xf32>
    %54 = stablehlo.divide %53, %52 : tensor<2x2x8x1xf32>
    %55 = stablehlo.convert %33 : (tensor<2x8x2x16xbf16>) -> tensor<2x8x2x16xf32>
    %56 = stablehlo.convert %51 : tensor<2x2x8x8xf32>
    %57 = stablehlo.dot_general %55, %56, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x8x2x16xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x16x8xf32>
    %58 = stablehlo.transpose %57, dims = [0, 3, 1, 2] : (tensor<2x2x16x8xf32>) -> tensor<2x8x2x16xf32>
    %59 = stablehlo.reshape %58 : (tensor<2x8x2x16xf32>) -> tensor<2x8x32xf32>
    %60 = stablehlo.convert %59 : tensor<2x8x32xf32>
    %61 = stablehlo.convert %arg7 : (tensor<32x32xbf16>) -> tensor<32x32xf32>
    %62 = stablehlo.dot_general %60, %61, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
    %63 = stablehlo.convert %arg10 : (tensor<2x8x32xbf16>) -> tensor<2x8x32xf32>
    %64 = stablehlo.add %63, %62 : tensor<2x8x32xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %65 = stablehlo.reduce(%64 init: %cst_10) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_11 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %67 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %68 = stablehlo.divide %66, %67 : tensor<2x8x1xf32>
    %69 = stablehlo.broadcast_in_dim %68, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %70 = stablehlo.subtract %64, %69 : tensor<2x8x32xf32>
    %71 = chlo.square %70 : tensor<2x8x32xf32> -> tensor<2x8x32xf32>
    %cst_12 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %72 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x8x32xf32>
    %73 = stablehlo.multiply %72, %70 : tensor<2x8x32xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %74 = stablehlo.reduce(%71 init: %cst_13) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %75 = stablehlo.broadcast_in_dim %74, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_14 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %76 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %77 = stablehlo.divide %75, %76 : tensor<2x8x1xf32>
    %78 = stablehlo.broadcast_in_dim %68, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %79 = stablehlo.subtract %64, %78 : tensor<2x8x32xf32>
    %cst_15 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %80 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %81 = stablehlo.add %77, %80 : tensor<2x8x1xf32>
    %82 = stablehlo.rsqrt %81 : tensor<2x8x1xf32>
    %83 = stablehlo.divide %82, %81 : tensor<2x8x1xf32>
    %cst_16 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %84 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %85 = stablehlo.multiply %84, %83 : tensor<2x8x1xf32>
    %86 = stablehlo.broadcast_in_dim %82, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %87 = stablehlo.multiply %79, %86 : tensor<2x8x32xf32>
    %88 = stablehlo.convert %arg3 : (tensor<32xbf16>) -> tensor<32xf32>
    %89 = stablehlo.broadcast_in_dim %88, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %90 = stablehlo.broadcast_in_dim %89, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %91 = stablehlo.multiply %87, %90 : tensor<2x8x32xf32>
    %92 = stablehlo.convert %arg2 : (tensor<32xbf16>) -> tensor<32xf32>
    %93 = stablehlo.broadcast_in_dim %92, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %94 = stablehlo.broadcast_in_dim %93, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %95 = stablehlo.add %91, %94 : tensor<2x8x32xf32>
    %96 = stablehlo.convert %95 : tensor<2x8x32xf32>
    %97 = stablehlo.convert %arg4 : (tensor<32x64xbf16>) -> tensor<32x64xf32>
    %98 = stablehlo.dot_general %96, %97, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x64xf32>) -> tensor<2x8x64xf32>
    %99 = stablehlo.multiply %98, %98 : tensor<2x8x64xf32>
    %100 = stablehlo.multiply %99, %98 : tensor<2x8x64xf32>
    %101 = stablehlo.multiply %98, %98 : tensor<2x8x64xf32>
    %cst_17 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %102 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %103 = stablehlo.multiply %102, %101 : tensor<2x8x64xf32>
    %cst_18 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %104 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %105 = stablehlo.multiply %104, %100 : tensor<2x8x64xf32>
    %106 = stablehlo.add %98, %105 : tensor<2x8x64xf32>
    %cst_19 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %107 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %108 = stablehlo.multiply %107, %106 : tensor<2x8x64xf32>
    %109 = stablehlo.tanh %108 : tensor<2x8x64xf32>
    %cst_20 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %110 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %111 = stablehlo.subtract %110, %109 : tensor<2x8x64xf32>
    %cst_21 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %112 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %113 = stablehlo.add %112, %109 : tensor<2x8x64xf32>
    %cst_22 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %114 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %115 = stablehlo.multiply %114, %113 : tensor<2x8x64xf32>
    %116 = stablehlo.multiply %98, %115 : tensor<2x8x64xf32>
    %117 = stablehlo.convert %116 : tensor<2x8x64xf32>
    %118 = stablehlo.convert %arg5 : (tensor<64x32xbf16>) -> tensor<64x32xf32>
    %119 = stablehlo.dot_general %117, %118, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x64xf32>, tensor<64x32xf32>) -> tensor<2x8x32xf32>
    %120 = stablehlo.add %64, %119 : tensor<2x8x32xf32>
    %cst_23 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %121 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<2x8x32xf32>
    %122 = stablehlo.multiply %121, %120 : tensor<2x8x32xf32>
    %cst_24 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_25 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %123 = stablehlo.divide %cst_24, %cst_25 : tensor<f32>
    %124 = stablehlo.broadcast_in_dim %123, dims = [] : (tensor<f32>) -> tensor<2x8x32xf32>
    %125 = stablehlo.multiply %124, %122 : tensor<2x8x32xf32>
    %126 = stablehlo.dot_general %125, %116, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<2x8x64xf32>) -> tensor<32x64xf32>
    %127 = stablehlo.transpose %126, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %128 = stablehlo.convert %127 : (tensor<64x32xf32>) -> tensor<64x32xbf16>
    %129 = stablehlo.convert %125 : tensor<2x8x32xf32>
    %130 = stablehlo.convert %arg5 : (tensor<64x32xbf16>) -> tensor<64x32xf32>
    %131 = stablehlo.dot_general %129, %130, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<64x32xf32>) -> tensor<2x8x64xf32>
    %132 = stablehlo.multiply %98, %131 : tensor<2x8x64xf32>
    %133 = stablehlo.multiply %131, %115 : tensor<2x8x64xf32>
    %cst_26 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %134 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %135 = stablehlo.multiply %134, %132 : tensor<2x8x64xf32>
    %136 = stablehlo.multiply %135, %111 : tensor<2x8x64xf32>
    %137 = stablehlo.multiply %136, %109 : tensor<2x8x64xf32>
    %138 = stablehlo.add %136, %137 : tensor<2x8x64xf32>
    %cst_27 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %139 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %140 = stablehlo.multiply %139, %138 : tensor<2x8x64xf32>
    %141 = stablehlo.add %133, %140 : tensor<2x8x64xf32>
    %cst_28 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %142 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %143 = stablehlo.multiply %142, %140 : tensor<2x8x64xf32>
    %144 = stablehlo.multiply %143, %103 : tensor<2x8x64xf32>
    %145 = stablehlo.add %141, %144 : tensor<2x8x64xf32>
    %146 = stablehlo.dot_general %145, %95, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x64xf32>, tensor<2x8x32xf32>) -> tensor<64x32xf32>
    %147 = stablehlo.transpose %146, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %148 = stablehlo.convert %147 : (tensor<32x64xf32>) -> tensor<32x64xbf16>
    %149 = stablehlo.convert %145 : tensor<2x8x64xf32>
    %150 = stablehlo.convert %arg4 : (tensor<32x64xbf16>) -> tensor<32x64xf32>
    %151 = stablehlo.dot_general %149, %150, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x64xf32>, tensor<32x64xf32>) -> tensor<2x8x32xf32>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %152 = stablehlo.reduce(%151 init: %cst_29) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %153 = stablehlo.reshape %152 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %154 = stablehlo.reduce(%153 init: %cst_30) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %155 = stablehlo.convert %154 : (tensor<32xf32>) -> tensor<32xbf16>
    %156 = stablehlo.multiply %87, %151 : tensor<2x8x32xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %157 = stablehlo.reduce(%156 init: %cst_31) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %158 = stablehlo.reshape %157 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %159 = stablehlo.broadcast_in_dim %89, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %160 = stablehlo.multiply %151, %159 : tensor<2x8x32xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %161 = stablehlo.reduce(%158 init: %cst_32) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %162 = stablehlo.convert %161 : (tensor<32xf32>) -> tensor<32xbf16>
    %163 = stablehlo.multiply %79, %160 : tensor<2x8x32xf32>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %164 = stablehlo.reduce(%163 init: %cst_33) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %165 = stablehlo.reshape %164 : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %166 = stablehlo.broadcast_in_dim %82, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %167 = stablehlo.multiply %160, %166 : tensor<2x8x32xf32>
    %168 = stablehlo.multiply %165, %85 : tensor<2x8x1xf32>
    %169 = stablehlo.negate %167 : tensor<2x8x32xf32>
    %cst_34 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %170 = stablehlo.reduce(%169 init: %cst_34) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %171 = stablehlo.reshape %170 : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %172 = stablehlo.add %125, %167 : tensor<2x8x32xf32>
    %cst_35 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %173 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %174 = stablehlo.divide %168, %173 : tensor<2x8x1xf32>
    %cst_36 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %175 = stablehlo.reduce(%174 init: %cst_36) applies stablehlo.add across dimensions = [2] : (tensor<2x8x1xf32>, tensor<f32>) -> tensor<2x8xf32>
    %176 = stablehlo.broadcast_in_dim %175, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x32xf32>
    %177 = stablehlo.multiply %176, %73 : tensor<2x8x32xf32>
    %178 = stablehlo.negate %177 : tensor<2x8x32xf32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %179 = stablehlo.reduce(%178 init: %cst_37) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %180 = stablehlo.reshape %179 : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %181 = stablehlo.add %172, %177 : tensor<2x8x32xf32>
    %182 = stablehlo.add %171, %180 : tensor<2x8x1xf32>
    %cst_38 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %183 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %184 = stablehlo.divide %182, %183 : tensor<2x8x1xf32>
    %cst_39 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %185 = stablehlo.reduce(%184 init: %cst_39) applies stablehlo.add across dimensions = [2] : (tensor<2x8x1xf32>, tensor<f32>) -> tensor<2x8xf32>
    %186 = stablehlo.broadcast_in_dim %185, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x32xf32>
    %187 = stablehlo.add %181, %186 : tensor<2x8x32xf32>
    %188 = stablehlo.dot_general %187, %59, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<32x32xf32>
    %189 = stablehlo.transpose %188, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %190 = stablehlo.convert %189 : (tensor<32x32xf32>) -> tensor<32x32xbf16>
    %191 = stablehlo.convert %187 : tensor<2x8x32xf32>
    %192 = stablehlo.convert %arg7 : (tensor<32x32xbf16>) -> tensor<32x32xf32>
    %193 = stablehlo.dot_general %191, %192, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
    %194 = stablehlo.reshape %193 : (tensor<2x8x32xf32>) -> tensor<2x8x2x16xf32>
    %195 = stablehlo.transpose %194, dims = [0, 2, 3, 1] : (tensor<2x8x2x16xf32>) -> tensor<2x2x16x8xf32>
    %196 = stablehlo.convert %195 : tensor<2x2x16x8xf32>
    %197 = stablehlo.convert %33 : (tensor<2x8x2x16xbf16>) -> tensor<2x8x2x16xf32>
    %198 = stablehlo.dot_general %196, %197, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x2x16x8xf32>, tensor<2x8x2x16xf32>) -> tensor<2x2x8x8xf32>
    %199 = stablehlo.dot_general %195, %51, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x2x16x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x16x8xf32>
    %200 = stablehlo.transpose %199, dims = [0, 3, 1, 2] : (tensor<2x2x16x8xf32>) -> tensor<2x8x2x16xf32>
    %201 = stablehlo.convert %200 : (tensor<2x8x2x16xf32>) -> tensor<2x8x2x16xbf16>
    %202 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2, 3] : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
    %203 = stablehlo.multiply %198, %202 : tensor<2x2x8x8xf32>
    %204 = stablehlo.multiply %203, %47 : tensor<2x2x8x8xf32>
    %cst_40 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %205 = stablehlo.reduce(%204 init: %cst_40) applies stablehlo.add across dimensions = [3] : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %206 = stablehlo.reshape %205 : (tensor<2x2x8xf32>) -> tensor<2x2x8x1xf32>
    %207 = stablehlo.negate %206 : tensor<2x2x8x1xf32>
    %208 = stablehlo.broadcast_in_dim %49, dims = [0, 1, 2, 3] : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
    %209 = stablehlo.divide %198, %208 : tensor<2x2x8x8xf32>
    %cst_41 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %210 = stablehlo.reduce(%207 init: %cst_41) applies stablehlo.add across dimensions = [3] : (tensor<2x2x8x1xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %211 = stablehlo.broadcast_in_dim %210, dims = [0, 1, 2] : (tensor<2x2x8xf32>) -> tensor<2x2x8x8xf32>
    %212 = stablehlo.add %209, %211 : tensor<2x2x8x8xf32>
    %213 = stablehlo.multiply %212, %47 : tensor<2x2x8x8xf32>
    %214 = call @_where_0(%40#1, %213) : (tensor<2x2x8x8xi1>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
    %cst_42 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %215 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<2x2x8x8xf32>
    %216 = stablehlo.divide %214, %215 : tensor<2x2x8x8xf32>
    %217 = stablehlo.convert %216 : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xbf16>
    %218 = stablehlo.dot_general %217, %29, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x2x8x8xbf16>, tensor<2x8x2x16xbf16>) -> tensor<2x2x8x16xbf16>
    %219 = stablehlo.transpose %218, dims = [0, 2, 1, 3] : (tensor<2x2x8x16xbf16>) -> tensor<2x8x2x16xbf16>
    %220 = stablehlo.dot_general %217, %31, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x2x8x8xbf16>, tensor<2x8x2x16xbf16>) -> tensor<2x2x8x16xbf16>
    %221 = stablehlo.transpose %220, dims = [0, 2, 1, 3] : (tensor<2x2x8x16xbf16>) -> tensor<2x8x2x16xbf16>
    %222 = stablehlo.reshape %201 : (tensor<2x8x2x16xbf16>) -> tensor<2x8x32xbf16>
    %223 = stablehlo.dot_general %222, %27, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<2x8x32xbf16>) -> tensor<32x32xbf16>
    %224 = stablehlo.transpose %223, dims = [1, 0] : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %225 = stablehlo.dot_general %222, %arg9, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x32xbf16>) -> tensor<2x8x32xbf16>
    %226 = stablehlo.reshape %219 : (tensor<2x8x2x16xbf16>) -> tensor<2x8x32xbf16>
    %227 = stablehlo.dot_general %226, %27, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<2x8x32xbf16>) -> tensor<32x32xbf16>
    %228 = stablehlo.transpose %227, dims = [1, 0] : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %229 = stablehlo.dot_general %226, %arg6, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x32xbf16>) -> tensor<2x8x32xbf16>
    %230 = stablehlo.add %225, %229 : tensor<2x8x32xbf16>
    %231 = stablehlo.reshape %221 : (tensor<2x8x2x16xbf16>) -> tensor<2x8x32xbf16>
    %232 = stablehlo.dot_general %231, %27, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<2x8x32xbf16>) -> tensor<32x32xbf16>
    %233 = stablehlo.transpose %232, dims = [1, 0] : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %234 = stablehlo.dot_general %231, %arg8, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xbf16>, tensor<32x32xbf16>) -> tensor<2x8x32xbf16>
    %235 = stablehlo.add %230, %234 : tensor<2x8x32xbf16>
    %cst_43 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %236 = stablehlo.reduce(%235 init: %cst_43) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x8x32xbf16>, tensor<bf16>) -> tensor<32xbf16>
    %237 = stablehlo.reshape %236 : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %cst_44 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %238 = stablehlo.reduce(%237 init: %cst_44) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xbf16>, tensor<bf16>) -> tensor<32xbf16>
    %239 = stablehlo.multiply %21, %235 : tensor<2x8x32xbf16>
    %cst_45 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %240 = stablehlo.reduce(%239 init: %cst_45) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x8x32xbf16>, tensor<bf16>) -> tensor<32xbf16>
    %241 = stablehlo.reshape %240 : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %cst_46 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %242 = stablehlo.reduce(%241 init: %cst_46) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xbf16>, tensor<bf16>) -> tensor<32xbf16>
    return %238, %242, %155, %162, %148, %128, %228, %190, %233, %224 : tensor<32xbf16>, tensor<32xbf16>, tensor<32xbf16>, tensor<32xbf16>, tensor<32x64xbf16>, tensor<64x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>
  }
  func.func private @tril(%arg0: tensor<8x8xi1>) -> tensor<8x8xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<8x8xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %2 = stablehlo.add %0, %1 : tensor<8x8xi32>
    %3 = stablehlo.iota dim = 1 : tensor<8x8xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<8x8xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<8x8xi1>, tensor<8x8xi1>
    return %6 : tensor<8x8xi1>
  }
  func.func private @_where(%arg0: tensor<8x8xi1>, %arg1: tensor<2x2x8x8xf32>, %arg2: tensor<f32>) -> (tensor<2x2x8x8xf32>, tensor<2x2x8x8xi1>) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<8x8xi1>) -> tensor<2x2x8x8xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<2x2x8x8xf32>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<2x2x8x8xi1>, tensor<2x2x8x8xf32>
    return %2, %0 : tensor<2x2x8x8xf32>, tensor<2x2x8x8xi1>
  }
  func.func private @_where_0(%arg0: tensor<2x2x8x8xi1>, %arg1: tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x2x8x8xf32>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<2x2x8x8xi1>, tensor<2x2x8x8xf32>
    return %1 : tensor<2x2x8x8xf32>
  }
}
