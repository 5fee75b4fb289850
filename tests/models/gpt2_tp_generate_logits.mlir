module @jit_forward attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<96xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}, %arg1: tensor<96x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg2: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg3: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg4: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg5: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg6: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg7: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg8: tensor<128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}, %arg9: tensor<128x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg10: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg11: tensor<32x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg12: tensor<96xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}, %arg13: tensor<96x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg14: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg15: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg16: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg17: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg18: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg19: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg20: tensor<128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}, %arg21: tensor<128x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg22: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg23: tensor<32x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg24: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg25: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg26: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg27: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg28: tensor<4x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<4x8x64xbf16> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {"model"}]>}) {
    %0 = stablehlo.iota dim = 0 : tensor<8xi32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<8xi32>) -> tensor<1x8xi32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x8xi32>) -> tensor<4x8xi32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %4 = stablehlo.convert %3 : (tensor<4x8xf32>) -> tensor<4x8xi32>
    %5 = stablehlo.convert %arg27 : (tensor<64x32xf32>) -> tensor<64x32xbf16>
    %6 = call @_take(%5, %arg28) : (tensor<64x32xbf16>, tensor<4x8xi32>) -> tensor<4x8x32xbf16>
    %7 = stablehlo.convert %arg26 : (tensor<16x32xf32>) -> tensor<16x32xbf16>
    %8 = call @_take_0(%7, %2) : (tensor<16x32xbf16>, tensor<4x8xi32>) -> tensor<4x8x32xbf16>
    %9 = stablehlo.add %6, %8 : tensor<4x8x32xbf16>
    %10 = stablehlo.convert %9 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %11 = chlo.square %10 : tensor<4x8x32xf32> -> tensor<4x8x32xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.reduce(%10 init: %cst_0) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_1 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %14 = stablehlo.divide %12, %13 : tensor<4x8xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.reduce(%11 init: %cst_2) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_3 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %17 = stablehlo.divide %15, %16 : tensor<4x8xf32>
    %18 = chlo.square %14 : tensor<4x8xf32> -> tensor<4x8xf32>
    %19 = stablehlo.subtract %17, %18 : tensor<4x8xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %21 = stablehlo.maximum %20, %19 : tensor<4x8xf32>
    %22 = stablehlo.broadcast_in_dim %14, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %23 = stablehlo.broadcast_in_dim %21, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %24 = stablehlo.convert %9 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %25 = stablehlo.broadcast_in_dim %22, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %26 = stablehlo.subtract %24, %25 : tensor<4x8x32xf32>
    %cst_5 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %28 = stablehlo.add %23, %27 : tensor<4x8x1xf32>
    %29 = stablehlo.rsqrt %28 : tensor<4x8x1xf32>
    %30 = stablehlo.reshape %arg5 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %31 = stablehlo.broadcast_in_dim %29, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %32 = stablehlo.broadcast_in_dim %30, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %33 = stablehlo.multiply %31, %32 : tensor<4x8x32xf32>
    %34 = stablehlo.multiply %26, %33 : tensor<4x8x32xf32>
    %35 = stablehlo.reshape %arg4 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %36 = stablehlo.broadcast_in_dim %35, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %37 = stablehlo.add %34, %36 : tensor<4x8x32xf32>
    %38 = stablehlo.convert %37 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
    %39 = stablehlo.iota dim = 0 : tensor<16xi32>
    %40 = stablehlo.broadcast_in_dim %39, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %41 = stablehlo.broadcast_in_dim %40, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<1x16x1xi32>
    %42 = stablehlo.broadcast_in_dim %40, dims = [0, 2] : (tensor<1x16xi32>) -> tensor<1x1x16xi32>
    %43 = stablehlo.broadcast_in_dim %41, dims = [0, 1, 2] : (tensor<1x16x1xi32>) -> tensor<1x16x16xi32>
    %44 = stablehlo.broadcast_in_dim %42, dims = [0, 1, 2] : (tensor<1x1x16xi32>) -> tensor<1x16x16xi32>
    %45 = stablehlo.compare GE, %43, %44, SIGNED : (tensor<1x16x16xi32>, tensor<1x16x16xi32>) -> tensor<1x16x16xi1>
    %46 = stablehlo.broadcast_in_dim %45, dims = [0, 2, 3] : (tensor<1x16x16xi1>) -> tensor<1x1x16x16xi1>
    %47 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<96x32xf32>) -> tensor<32x96xf32>
    %48 = stablehlo.convert %47 : (tensor<32x96xf32>) -> tensor<32x96xbf16>
    %49 = stablehlo.dot_general %38, %48, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xbf16>, tensor<32x96xbf16>) -> tensor<4x8x96xbf16>
    %50 = stablehlo.convert %arg0 : (tensor<96xf32>) -> tensor<96xbf16>
    %51 = stablehlo.broadcast_in_dim %50, dims = [2] : (tensor<96xbf16>) -> tensor<1x1x96xbf16>
    %52 = stablehlo.broadcast_in_dim %51, dims = [0, 1, 2] : (tensor<1x1x96xbf16>) -> tensor<4x8x96xbf16>
    %53 = stablehlo.add %49, %52 : tensor<4x8x96xbf16>
    %54 = stablehlo.slice %53 [0:4, 0:8, 0:32] : (tensor<4x8x96xbf16>) -> tensor<4x8x32xbf16>
    %55 = stablehlo.slice %53 [0:4, 0:8, 32:64] : (tensor<4x8x96xbf16>) -> tensor<4x8x32xbf16>
    %56 = stablehlo.slice %53 [0:4, 0:8, 64:96] : (tensor<4x8x96xbf16>) -> tensor<4x8x32xbf16>
    %57 = stablehlo.reshape %54 : (tensor<4x8x32xbf16>) -> tensor<4x8x4x8xbf16>
    %58 = stablehlo.reshape %55 : (tensor<4x8x32xbf16>) -> tensor<4x8x4x8xbf16>
    %59 = stablehlo.reshape %56 : (tensor<4x8x32xbf16>) -> tensor<4x8x4x8xbf16>
    %60 = stablehlo.slice %46 [0:1, 0:1, 0:8, 0:8] : (tensor<1x1x16x16xi1>) -> tensor<1x1x8x8xi1>
    %61 = stablehlo.broadcast_in_dim %60, dims = [0, 1, 2, 3] : (tensor<1x1x8x8xi1>) -> tensor<4x1x8x8xi1>
    %62 = stablehlo.broadcast_in_dim %4, dims = [0, 3] : (tensor<4x8xi32>) -> tensor<4x1x1x8xi32>
    %63 = stablehlo.broadcast_in_dim %62, dims = [0, 1, 2, 3] : (tensor<4x1x1x8xi32>) -> tensor<4x1x8x8xi32>
    %64 = stablehlo.convert %61 : (tensor<4x1x8x8xi1>) -> tensor<4x1x8x8xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %65 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x1x8x8xi32>
    %66 = stablehlo.compare NE, %63, %65, SIGNED : (tensor<4x1x8x8xi32>, tensor<4x1x8x8xi32>) -> tensor<4x1x8x8xi1>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %67 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<4x1x8x8xi32>
    %68 = stablehlo.compare NE, %64, %67, SIGNED : (tensor<4x1x8x8xi32>, tensor<4x1x8x8xi32>) -> tensor<4x1x8x8xi1>
    %69 = stablehlo.and %66, %68 : tensor<4x1x8x8xi1>
    %70 = stablehlo.convert %69 : (tensor<4x1x8x8xi1>) -> tensor<4x1x8x8xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %71 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4x1x8x8xf32>
    %72 = stablehlo.compare GT, %70, %71, FLOAT : (tensor<4x1x8x8xf32>, tensor<4x1x8x8xf32>) -> tensor<4x1x8x8xi1>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %73 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x1x8x8xf32>
    %74 = stablehlo.convert %73 : (tensor<4x1x8x8xf32>) -> tensor<4x1x8x8xbf16>
    %cst_9 = stablehlo.constant dense<-3.389530e+38> : tensor<bf16>
    %75 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<bf16>) -> tensor<4x1x8x8xbf16>
    %76 = stablehlo.select %72, %74, %75 : tensor<4x1x8x8xi1>, tensor<4x1x8x8xbf16>
    %cst_10 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %77 = stablehlo.sqrt %cst_10 : tensor<f32>
    %78 = stablehlo.convert %77 : (tensor<f32>) -> tensor<bf16>
    %79 = stablehlo.broadcast_in_dim %78, dims = [] : (tensor<bf16>) -> tensor<4x8x4x8xbf16>
    %80 = stablehlo.divide %57, %79 : tensor<4x8x4x8xbf16>
    %81 = stablehlo.dot_general %80, %58, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xbf16>, tensor<4x8x4x8xbf16>) -> tensor<4x4x8x8xbf16>
    %82 = stablehlo.broadcast_in_dim %76, dims = [0, 1, 2, 3] : (tensor<4x1x8x8xbf16>) -> tensor<4x4x8x8xbf16>
    %83 = stablehlo.add %81, %82 : tensor<4x4x8x8xbf16>
    %cst_11 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %84 = stablehlo.reduce(%83 init: %cst_11) applies stablehlo.maximum across dimensions = [3] : (tensor<4x4x8x8xbf16>, tensor<bf16>) -> tensor<4x4x8xbf16>
    %cst_12 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %85 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<bf16>) -> tensor<4x4x8xbf16>
    %86 = stablehlo.maximum %85, %84 : tensor<4x4x8xbf16>
    %87 = stablehlo.broadcast_in_dim %86, dims = [0, 1, 2] : (tensor<4x4x8xbf16>) -> tensor<4x4x8x1xbf16>
    %88 = stablehlo.broadcast_in_dim %87, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xbf16>) -> tensor<4x4x8x8xbf16>
    %89 = stablehlo.subtract %83, %88 : tensor<4x4x8x8xbf16>
    %90 = stablehlo.exponential %89 : tensor<4x4x8x8xbf16>
    %91 = stablehlo.convert %90 : (tensor<4x4x8x8xbf16>) -> tensor<4x4x8x8xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %92 = stablehlo.reduce(%91 init: %cst_13) applies stablehlo.add across dimensions = [3] : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %93 = stablehlo.broadcast_in_dim %92, dims = [0, 1, 2] : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %94 = stablehlo.convert %93 : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x1xbf16>
    %95 = stablehlo.broadcast_in_dim %94, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xbf16>) -> tensor<4x4x8x8xbf16>
    %96 = stablehlo.divide %90, %95 : tensor<4x4x8x8xbf16>
    %97 = stablehlo.dot_general %59, %96, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xbf16>, tensor<4x4x8x8xbf16>) -> tensor<4x4x8x8xbf16>
    %98 = stablehlo.transpose %97, dims = [0, 3, 1, 2] : (tensor<4x4x8x8xbf16>) -> tensor<4x8x4x8xbf16>
    %99 = stablehlo.reshape %98 : (tensor<4x8x4x8xbf16>) -> tensor<4x8x32xbf16>
    %100 = stablehlo.transpose %arg3, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %101 = stablehlo.convert %100 : (tensor<32x32xf32>) -> tensor<32x32xbf16>
    %102 = stablehlo.dot_general %99, %101, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xbf16>, tensor<32x32xbf16>) -> tensor<4x8x32xbf16>
    %103 = stablehlo.convert %arg2 : (tensor<32xf32>) -> tensor<32xbf16>
    %104 = stablehlo.broadcast_in_dim %103, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %105 = stablehlo.broadcast_in_dim %104, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<4x8x32xbf16>
    %106 = stablehlo.add %102, %105 : tensor<4x8x32xbf16>
    %107 = stablehlo.add %106, %9 : tensor<4x8x32xbf16>
    %108 = stablehlo.convert %107 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %109 = chlo.square %108 : tensor<4x8x32xf32> -> tensor<4x8x32xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %110 = stablehlo.reduce(%108 init: %cst_14) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_15 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %111 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %112 = stablehlo.divide %110, %111 : tensor<4x8xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %113 = stablehlo.reduce(%109 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_17 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %114 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %115 = stablehlo.divide %113, %114 : tensor<4x8xf32>
    %116 = chlo.square %112 : tensor<4x8xf32> -> tensor<4x8xf32>
    %117 = stablehlo.subtract %115, %116 : tensor<4x8xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %118 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %119 = stablehlo.maximum %118, %117 : tensor<4x8xf32>
    %120 = stablehlo.broadcast_in_dim %112, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %121 = stablehlo.broadcast_in_dim %119, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %122 = stablehlo.convert %107 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %123 = stablehlo.broadcast_in_dim %120, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %124 = stablehlo.subtract %122, %123 : tensor<4x8x32xf32>
    %cst_19 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %125 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %126 = stablehlo.add %121, %125 : tensor<4x8x1xf32>
    %127 = stablehlo.rsqrt %126 : tensor<4x8x1xf32>
    %128 = stablehlo.reshape %arg7 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %129 = stablehlo.broadcast_in_dim %127, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %130 = stablehlo.broadcast_in_dim %128, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %131 = stablehlo.multiply %129, %130 : tensor<4x8x32xf32>
    %132 = stablehlo.multiply %124, %131 : tensor<4x8x32xf32>
    %133 = stablehlo.reshape %arg6 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %134 = stablehlo.broadcast_in_dim %133, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %135 = stablehlo.add %132, %134 : tensor<4x8x32xf32>
    %136 = stablehlo.convert %135 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
    %137 = stablehlo.transpose %arg9, dims = [1, 0] : (tensor<128x32xf32>) -> tensor<32x128xf32>
    %138 = stablehlo.convert %137 : (tensor<32x128xf32>) -> tensor<32x128xbf16>
    %139 = stablehlo.dot_general %136, %138, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xbf16>, tensor<32x128xbf16>) -> tensor<4x8x128xbf16>
    %140 = stablehlo.convert %arg8 : (tensor<128xf32>) -> tensor<128xbf16>
    %141 = stablehlo.broadcast_in_dim %140, dims = [2] : (tensor<128xbf16>) -> tensor<1x1x128xbf16>
    %142 = stablehlo.broadcast_in_dim %141, dims = [0, 1, 2] : (tensor<1x1x128xbf16>) -> tensor<4x8x128xbf16>
    %143 = stablehlo.add %139, %142 : tensor<4x8x128xbf16>
    %144 = stablehlo.multiply %143, %143 : tensor<4x8x128xbf16>
    %145 = stablehlo.multiply %144, %143 : tensor<4x8x128xbf16>
    %cst_20 = stablehlo.constant dense<4.467770e-02> : tensor<bf16>
    %146 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<bf16>) -> tensor<4x8x128xbf16>
    %147 = stablehlo.multiply %146, %145 : tensor<4x8x128xbf16>
    %148 = stablehlo.add %143, %147 : tensor<4x8x128xbf16>
    %cst_21 = stablehlo.constant dense<7.968750e-01> : tensor<bf16>
    %149 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<bf16>) -> tensor<4x8x128xbf16>
    %150 = stablehlo.multiply %149, %148 : tensor<4x8x128xbf16>
    %151 = stablehlo.tanh %150 : tensor<4x8x128xbf16>
    %cst_22 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %152 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<bf16>) -> tensor<4x8x128xbf16>
    %153 = stablehlo.add %152, %151 : tensor<4x8x128xbf16>
    %cst_23 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %154 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<bf16>) -> tensor<4x8x128xbf16>
    %155 = stablehlo.multiply %154, %153 : tensor<4x8x128xbf16>
    %156 = stablehlo.multiply %143, %155 : tensor<4x8x128xbf16>
    %157 = stablehlo.transpose %arg11, dims = [1, 0] : (tensor<32x128xf32>) -> tensor<128x32xf32>
    %158 = stablehlo.convert %157 : (tensor<128x32xf32>) -> tensor<128x32xbf16>
    %159 = stablehlo.dot_general %156, %158, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x128xbf16>, tensor<128x32xbf16>) -> tensor<4x8x32xbf16>
    %160 = stablehlo.convert %arg10 : (tensor<32xf32>) -> tensor<32xbf16>
    %161 = stablehlo.broadcast_in_dim %160, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %162 = stablehlo.broadcast_in_dim %161, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<4x8x32xbf16>
    %163 = stablehlo.add %159, %162 : tensor<4x8x32xbf16>
    %164 = stablehlo.add %107, %163 : tensor<4x8x32xbf16>
    %165 = stablehlo.convert %164 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %166 = chlo.square %165 : tensor<4x8x32xf32> -> tensor<4x8x32xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %167 = stablehlo.reduce(%165 init: %cst_24) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_25 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %168 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %169 = stablehlo.divide %167, %168 : tensor<4x8xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %170 = stablehlo.reduce(%166 init: %cst_26) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_27 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %171 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %172 = stablehlo.divide %170, %171 : tensor<4x8xf32>
    %173 = chlo.square %169 : tensor<4x8xf32> -> tensor<4x8xf32>
    %174 = stablehlo.subtract %172, %173 : tensor<4x8xf32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %175 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %176 = stablehlo.maximum %175, %174 : tensor<4x8xf32>
    %177 = stablehlo.broadcast_in_dim %169, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %178 = stablehlo.broadcast_in_dim %176, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %179 = stablehlo.convert %164 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %180 = stablehlo.broadcast_in_dim %177, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %181 = stablehlo.subtract %179, %180 : tensor<4x8x32xf32>
    %cst_29 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %182 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %183 = stablehlo.add %178, %182 : tensor<4x8x1xf32>
    %184 = stablehlo.rsqrt %183 : tensor<4x8x1xf32>
    %185 = stablehlo.reshape %arg17 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %186 = stablehlo.broadcast_in_dim %184, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %187 = stablehlo.broadcast_in_dim %185, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %188 = stablehlo.multiply %186, %187 : tensor<4x8x32xf32>
    %189 = stablehlo.multiply %181, %188 : tensor<4x8x32xf32>
    %190 = stablehlo.reshape %arg16 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %191 = stablehlo.broadcast_in_dim %190, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %192 = stablehlo.add %189, %191 : tensor<4x8x32xf32>
    %193 = stablehlo.convert %192 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
    %194 = stablehlo.iota dim = 0 : tensor<16xi32>
    %195 = stablehlo.broadcast_in_dim %194, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %196 = stablehlo.broadcast_in_dim %195, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<1x16x1xi32>
    %197 = stablehlo.broadcast_in_dim %195, dims = [0, 2] : (tensor<1x16xi32>) -> tensor<1x1x16xi32>
    %198 = stablehlo.broadcast_in_dim %196, dims = [0, 1, 2] : (tensor<1x16x1xi32>) -> tensor<1x16x16xi32>
    %199 = stablehlo.broadcast_in_dim %197, dims = [0, 1, 2] : (tensor<1x1x16xi32>) -> tensor<1x16x16xi32>
    %200 = stablehlo.compare GE, %198, %199, SIGNED : (tensor<1x16x16xi32>, tensor<1x16x16xi32>) -> tensor<1x16x16xi1>
    %201 = stablehlo.broadcast_in_dim %200, dims = [0, 2, 3] : (tensor<1x16x16xi1>) -> tensor<1x1x16x16xi1>
    %202 = stablehlo.transpose %arg13, dims = [1, 0] : (tensor<96x32xf32>) -> tensor<32x96xf32>
    %203 = stablehlo.convert %202 : (tensor<32x96xf32>) -> tensor<32x96xbf16>
    %204 = stablehlo.dot_general %193, %203, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xbf16>, tensor<32x96xbf16>) -> tensor<4x8x96xbf16>
    %205 = stablehlo.convert %arg12 : (tensor<96xf32>) -> tensor<96xbf16>
    %206 = stablehlo.broadcast_in_dim %205, dims = [2] : (tensor<96xbf16>) -> tensor<1x1x96xbf16>
    %207 = stablehlo.broadcast_in_dim %206, dims = [0, 1, 2] : (tensor<1x1x96xbf16>) -> tensor<4x8x96xbf16>
    %208 = stablehlo.add %204, %207 : tensor<4x8x96xbf16>
    %209 = stablehlo.slice %208 [0:4, 0:8, 0:32] : (tensor<4x8x96xbf16>) -> tensor<4x8x32xbf16>
    %210 = stablehlo.slice %208 [0:4, 0:8, 32:64] : (tensor<4x8x96xbf16>) -> tensor<4x8x32xbf16>
    %211 = stablehlo.slice %208 [0:4, 0:8, 64:96] : (tensor<4x8x96xbf16>) -> tensor<4x8x32xbf16>
    %212 = stablehlo.reshape %209 : (tensor<4x8x32xbf16>) -> tensor<4x8x4x8xbf16>
    %213 = stablehlo.reshape %210 : (tensor<4x8x32xbf16>) -> tensor<4x8x4x8xbf16>
    %214 = stablehlo.reshape %211 : (tensor<4x8x32xbf16>) -> tensor<4x8x4x8xbf16>
    %215 = stablehlo.slice %201 [0:1, 0:1, 0:8, 0:8] : (tensor<1x1x16x16xi1>) -> tensor<1x1x8x8xi1>
    %216 = stablehlo.broadcast_in_dim %215, dims = [0, 1, 2, 3] : (tensor<1x1x8x8xi1>) -> tensor<4x1x8x8xi1>
    %217 = stablehlo.broadcast_in_dim %4, dims = [0, 3] : (tensor<4x8xi32>) -> tensor<4x1x1x8xi32>
    %218 = stablehlo.broadcast_in_dim %217, dims = [0, 1, 2, 3] : (tensor<4x1x1x8xi32>) -> tensor<4x1x8x8xi32>
    %219 = stablehlo.convert %216 : (tensor<4x1x8x8xi1>) -> tensor<4x1x8x8xi32>
    %c_30 = stablehlo.constant dense<0> : tensor<i32>
    %220 = stablehlo.broadcast_in_dim %c_30, dims = [] : (tensor<i32>) -> tensor<4x1x8x8xi32>
    %221 = stablehlo.compare NE, %218, %220, SIGNED : (tensor<4x1x8x8xi32>, tensor<4x1x8x8xi32>) -> tensor<4x1x8x8xi1>
    %c_31 = stablehlo.constant dense<0> : tensor<i32>
    %222 = stablehlo.broadcast_in_dim %c_31, dims = [] : (tensor<i32>) -> tensor<4x1x8x8xi32>
    %223 = stablehlo.compare NE, %219, %222, SIGNED : (tensor<4x1x8x8xi32>, tensor<4x1x8x8xi32>) -> tensor<4x1x8x8xi1>
    %224 = stablehlo.and %221, %223 : tensor<4x1x8x8xi1>
    %225 = stablehlo.convert %224 : (tensor<4x1x8x8xi1>) -> tensor<4x1x8x8xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %226 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<4x1x8x8xf32>
    %227 = stablehlo.compare GT, %225, %226, FLOAT : (tensor<4x1x8x8xf32>, tensor<4x1x8x8xf32>) -> tensor<4x1x8x8xi1>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %228 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<4x1x8x8xf32>
    %229 = stablehlo.convert %228 : (tensor<4x1x8x8xf32>) -> tensor<4x1x8x8xbf16>
    %cst_34 = stablehlo.constant dense<-3.389530e+38> : tensor<bf16>
    %230 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<bf16>) -> tensor<4x1x8x8xbf16>
    %231 = stablehlo.select %227, %229, %230 : tensor<4x1x8x8xi1>, tensor<4x1x8x8xbf16>
    %cst_35 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %232 = stablehlo.sqrt %cst_35 : tensor<f32>
    %233 = stablehlo.convert %232 : (tensor<f32>) -> tensor<bf16>
    %234 = stablehlo.broadcast_in_dim %233, dims = [] : (tensor<bf16>) -> tensor<4x8x4x8xbf16>
    %235 = stablehlo.divide %212, %234 : tensor<4x8x4x8xbf16>
    %236 = stablehlo.dot_general %235, %213, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xbf16>, tensor<4x8x4x8xbf16>) -> tensor<4x4x8x8xbf16>
    %237 = stablehlo.broadcast_in_dim %231, dims = [0, 1, 2, 3] : (tensor<4x1x8x8xbf16>) -> tensor<4x4x8x8xbf16>
    %238 = stablehlo.add %236, %237 : tensor<4x4x8x8xbf16>
    %cst_36 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %239 = stablehlo.reduce(%238 init: %cst_36) applies stablehlo.maximum across dimensions = [3] : (tensor<4x4x8x8xbf16>, tensor<bf16>) -> tensor<4x4x8xbf16>
    %cst_37 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %240 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<bf16>) -> tensor<4x4x8xbf16>
    %241 = stablehlo.maximum %240, %239 : tensor<4x4x8xbf16>
    %242 = stablehlo.broadcast_in_dim %241, dims = [0, 1, 2] : (tensor<4x4x8xbf16>) -> tensor<4x4x8x1xbf16>
    %243 = stablehlo.broadcast_in_dim %242, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xbf16>) -> tensor<4x4x8x8xbf16>
    %244 = stablehlo.subtract %238, %243 : tensor<4x4x8x8xbf16>
    %245 = stablehlo.exponential %244 : tensor<4x4x8x8xbf16>
    %246 = stablehlo.convert %245 : (tensor<4x4x8x8xbf16>) -> tensor<4x4x8x8xf32>
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %247 = stablehlo.reduce(%246 init: %cst_38) applies stablehlo.add across dimensions = [3] : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %248 = stablehlo.broadcast_in_dim %247, dims = [0, 1, 2] : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %249 = stablehlo.convert %248 : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x1xbf16>
    %250 = stablehlo.broadcast_in_dim %249, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xbf16>) -> tensor<4x4x8x8xbf16>
    %251 = stablehlo.divide %245, %250 : tensor<4x4x8x8xbf16>
    %252 = stablehlo.dot_general %214, %251, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xbf16>, tensor<4x4x8x8xbf16>) -> tensor<4x4x8x8xbf16>
    %253 = stablehlo.transpose %252, dims = [0, 3, 1, 2] : (tensor<4x4x8x8xbf16>) -> tensor<4x8x4x8xbf16>
    %254 = stablehlo.reshape %253 : (tensor<4x8x4x8xbf16>) -> tensor<4x8x32xbf16>
    %255 = stablehlo.transpose %arg15, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %256 = stablehlo.convert %255 : (tensor<32x32xf32>) -> tensor<32x32xbf16>
    %257 = stablehlo.dot_general %254, %256, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xbf16>, tensor<32x32xbf16>) -> tensor<4x8x32xbf16>
    %258 = stablehlo.convert %arg14 : (tensor<32xf32>) -> tensor<32xbf16>
    %259 = stablehlo.broadcast_in_dim %258, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %260 = stablehlo.broadcast_in_dim %259, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<4x8x32xbf16>
    %261 = stablehlo.add %257, %260 : tensor<4x8x32xbf16>
    %262 = stablehlo.add %261, %164 : tensor<4x8x32xbf16>
    %263 = stablehlo.convert %262 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %264 = chlo.square %263 : tensor<4x8x32xf32> -> tensor<4x8x32xf32>
    %cst_39 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %265 = stablehlo.reduce(%263 init: %cst_39) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_40 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %266 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %267 = stablehlo.divide %265, %266 : tensor<4x8xf32>
    %cst_41 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %268 = stablehlo.reduce(%264 init: %cst_41) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_42 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %269 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %270 = stablehlo.divide %268, %269 : tensor<4x8xf32>
    %271 = chlo.square %267 : tensor<4x8xf32> -> tensor<4x8xf32>
    %272 = stablehlo.subtract %270, %271 : tensor<4x8xf32>
    %cst_43 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %273 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %274 = stablehlo.maximum %273, %272 : tensor<4x8xf32>
    %275 = stablehlo.broadcast_in_dim %267, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %276 = stablehlo.broadcast_in_dim %274, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %277 = stablehlo.convert %262 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %278 = stablehlo.broadcast_in_dim %275, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %279 = stablehlo.subtract %277, %278 : tensor<4x8x32xf32>
    %cst_44 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %280 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %281 = stablehlo.add %276, %280 : tensor<4x8x1xf32>
    %282 = stablehlo.rsqrt %281 : tensor<4x8x1xf32>
    %283 = stablehlo.reshape %arg19 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %284 = stablehlo.broadcast_in_dim %282, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %285 = stablehlo.broadcast_in_dim %283, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %286 = stablehlo.multiply %284, %285 : tensor<4x8x32xf32>
    %287 = stablehlo.multiply %279, %286 : tensor<4x8x32xf32>
    %288 = stablehlo.reshape %arg18 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %289 = stablehlo.broadcast_in_dim %288, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %290 = stablehlo.add %287, %289 : tensor<4x8x32xf32>
    %291 = stablehlo.convert %290 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
    %292 = stablehlo.transpose %arg21, dims = [1, 0] : (tensor<128x32xf32>) -> tensor<32x128xf32>
    %293 = stablehlo.convert %292 : (tensor<32x128xf32>) -> tensor<32x128xbf16>
    %294 = stablehlo.dot_general %291, %293, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xbf16>, tensor<32x128xbf16>) -> tensor<4x8x128xbf16>
    %295 = stablehlo.convert %arg20 : (tensor<128xf32>) -> tensor<128xbf16>
    %296 = stablehlo.broadcast_in_dim %295, dims = [2] : (tensor<128xbf16>) -> tensor<1x1x128xbf16>
    %297 = stablehlo.broadcast_in_dim %296, dims = [0, 1, 2] : (tensor<1x1x128xbf16>) -> tensor<4x8x128xbf16>
    %298 = stablehlo.add %294, %297 : tensor<4x8x128xbf16>
    %299 = stablehlo.multiply %298, %298 : tensor<4x8x128xbf16>
    %300 = stablehlo.multiply %299, %298 : tensor<4x8x128xbf16>
    %cst_45 = stablehlo.constant dense<4.467770e-02> : tensor<bf16>
    %301 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<bf16>) -> tensor<4x8x128xbf16>
    %302 = stablehlo.multiply %301, %300 : tensor<4x8x128xbf16>
    %303 = stablehlo.add %298, %302 : tensor<4x8x128xbf16>
    %cst_46 = stablehlo.constant dense<7.968750e-01> : tensor<bf16>
    %304 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<bf16>) -> tensor<4x8x128xbf16>
    %305 = stablehlo.multiply %304, %303 : tensor<4x8x128xbf16>
    %306 = stablehlo.tanh %305 : tensor<4x8x128xbf16>
    %cst_47 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %307 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<bf16>) -> tensor<4x8x128xbf16>
    %308 = stablehlo.add %307, %306 : tensor<4x8x128xbf16>
    %cst_48 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %309 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<bf16>) -> tensor<4x8x128xbf16>
    %310 = stablehlo.multiply %309, %308 : tensor<4x8x128xbf16>
    %311 = stablehlo.multiply %298, %310 : tensor<4x8x128xbf16>
    %312 = stablehlo.transpose %arg23, dims = [1, 0] : (tensor<32x128xf32>) -> tensor<128x32xf32>
    %313 = stablehlo.convert %312 : (tensor<128x32xf32>) -> tensor<128x32xbf16>
    %314 = stablehlo.dot_general %311, %313, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x128xbf16>, tensor<128x32xbf16>) -> tensor<4x8x32xbf16>
    %315 = stablehlo.convert %arg22 : (tensor<32xf32>) -> tensor<32xbf16>
    %316 = stablehlo.broadcast_in_dim %315, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %317 = stablehlo.broadcast_in_dim %316, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<4x8x32xbf16>
    %318 = stablehlo.add %314, %317 : tensor<4x8x32xbf16>
    %319 = stablehlo.add %262, %318 : tensor<4x8x32xbf16>
    %320 = stablehlo.convert %319 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %321 = chlo.square %320 : tensor<4x8x32xf32> -> tensor<4x8x32xf32>
    %cst_49 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %322 = stablehlo.reduce(%320 init: %cst_49) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_50 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %323 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %324 = stablehlo.divide %322, %323 : tensor<4x8xf32>
    %cst_51 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %325 = stablehlo.reduce(%321 init: %cst_51) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_52 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %326 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %327 = stablehlo.divide %325, %326 : tensor<4x8xf32>
    %328 = chlo.square %324 : tensor<4x8xf32> -> tensor<4x8xf32>
    %329 = stablehlo.subtract %327, %328 : tensor<4x8xf32>
    %cst_53 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %330 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %331 = stablehlo.maximum %330, %329 : tensor<4x8xf32>
    %332 = stablehlo.broadcast_in_dim %324, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %333 = stablehlo.broadcast_in_dim %331, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %334 = stablehlo.convert %319 : (tensor<4x8x32xbf16>) -> tensor<4x8x32xf32>
    %335 = stablehlo.broadcast_in_dim %332, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %336 = stablehlo.subtract %334, %335 : tensor<4x8x32xf32>
    %cst_54 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %337 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %338 = stablehlo.add %333, %337 : tensor<4x8x1xf32>
    %339 = stablehlo.rsqrt %338 : tensor<4x8x1xf32>
    %340 = stablehlo.reshape %arg25 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %341 = stablehlo.broadcast_in_dim %339, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %342 = stablehlo.broadcast_in_dim %340, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %343 = stablehlo.multiply %341, %342 : tensor<4x8x32xf32>
    %344 = stablehlo.multiply %336, %343 : tensor<4x8x32xf32>
    %345 = stablehlo.reshape %arg24 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %346 = stablehlo.broadcast_in_dim %345, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %347 = stablehlo.add %344, %346 : tensor<4x8x32xf32>
    %348 = stablehlo.convert %347 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
    %349 = stablehlo.transpose %arg27, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %350 = stablehlo.convert %349 : (tensor<32x64xf32>) -> tensor<32x64xbf16>
    %351 = stablehlo.dot_general %348, %350, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xbf16>, tensor<32x64xbf16>) -> tensor<4x8x64xbf16>
    return %351 : tensor<4x8x64xbf16>
  }
  func.func private @_take(%arg0: tensor<64x32xbf16>, %arg1: tensor<4x8xi32>) -> tensor<4x8x32xbf16> {
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
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xbf16>, tensor<4x8x1xi32>) -> tensor<4x8x32xbf16>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<4x8xi1>) -> tensor<4x8x32xi1>
    %cst = stablehlo.constant dense<0x7FC0> : tensor<bf16>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<4x8x32xbf16>
    %16 = stablehlo.select %14, %13, %15 : tensor<4x8x32xi1>, tensor<4x8x32xbf16>
    return %16 : tensor<4x8x32xbf16>
  }
  func.func private @_where(%arg0: tensor<4x8xi1>, %arg1: tensor<4x8xi32>, %arg2: tensor<4x8xi32>) -> tensor<4x8xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<4x8xi1>, tensor<4x8xi32>
    return %0 : tensor<4x8xi32>
  }
  func.func private @_take_0(%arg0: tensor<16x32xbf16>, %arg1: tensor<4x8xi32>) -> tensor<4x8x32xbf16> {
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
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<16x32xbf16>, tensor<4x8x1xi32>) -> tensor<4x8x32xbf16>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<4x8xi1>) -> tensor<4x8x32xi1>
    %cst = stablehlo.constant dense<0x7FC0> : tensor<bf16>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<4x8x32xbf16>
    %16 = stablehlo.select %14, %13, %15 : tensor<4x8x32xi1>, tensor<4x8x32xbf16>
    return %16 : tensor<4x8x32xbf16>
  }
}
