module @jit_block attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg1: tensor<32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg2: tensor<32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg3: tensor<32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg4: tensor<32x64xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg5: tensor<64x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg6: tensor<32x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg7: tensor<32x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg8: tensor<32x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg9: tensor<32x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg10: tensor<2x8x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}) -> (tensor<2x8x32xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}) {
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
    %40 = call @_where(%39, %37, %cst_5) : (tensor<8x8xi1>, tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8x8xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %41 = stablehlo.reduce(%40 init: %cst_6) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x2x8xf32>
    %43 = stablehlo.maximum %42, %41 : tensor<2x2x8xf32>
    %44 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2] : (tensor<2x2x8xf32>) -> tensor<2x2x8x1xf32>
    %45 = stablehlo.broadcast_in_dim %44, dims = [0, 1, 2, 3] : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
    %46 = stablehlo.subtract %40, %45 : tensor<2x2x8x8xf32>
    %47 = stablehlo.exponential %46 : tensor<2x2x8x8xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %48 = stablehlo.reduce(%47 init: %cst_8) applies stablehlo.add across dimensions = [3] : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %49 = stablehlo.broadcast_in_dim %48, dims = [0, 1, 2] : (tensor<2x2x8xf32>) -> tensor<2x2x8x1xf32>
    %50 = stablehlo.broadcast_in_dim %49, dims = [0, 1, 2, 3] : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
    %51 = stablehlo.divide %47, %50 : tensor<2x2x8x8xf32>
    %52 = stablehlo.convert %33 : (tensor<2x8x2x16xbf16>) -> tensor<2x8x2x16xf32>
    %53 = stablehlo.convert %51 : tensor<2x2x8x8xf32>
    %54 = stablehlo.dot_general %52, %53, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x8x2x16xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x16x8xf32>
    %55 = stablehlo.transpose %54, dims = [0, 3, 1, 2] : (tensor<2x2x16x8xf32>) -> tensor<2x8x2x16xf32>
    %56 = stablehlo.reshape %55 : (tensor<2x8x2x16xf32>) -> tensor<2x8x32xf32>
    %57 = stablehlo.convert %56 : tensor<2x8x32xf32>
    %58 = stablehlo.convert %arg7 : (tensor<32x32xbf16>) -> tensor<32x32xf32>
    %59 = stablehlo.dot_general %57, %58, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
    %60 = stablehlo.convert %arg10 : (tensor<2x8x32xbf16>) -> tensor<2x8x32xf32>
    %61 = stablehlo.add %60, %59 : tensor<2x8x32xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %62 = stablehlo.reduce(%61 init: %cst_9) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %63 = stablehlo.broadcast_in_dim %62, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_10 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %64 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %65 = stablehlo.divide %63, %64 : tensor<2x8x1xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %67 = stablehlo.subtract %61, %66 : tensor<2x8x32xf32>
    %68 = chlo.square %67 : tensor<2x8x32xf32> -> tensor<2x8x32xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %69 = stablehlo.reduce(%68 init: %cst_11) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %70 = stablehlo.broadcast_in_dim %69, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_12 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %71 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %72 = stablehlo.divide %70, %71 : tensor<2x8x1xf32>
    %73 = stablehlo.broadcast_in_dim %65, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %74 = stablehlo.subtract %61, %73 : tensor<2x8x32xf32>
    %cst_13 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %75 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %76 = stablehlo.add %72, %75 : tensor<2x8x1xf32>
    %77 = stablehlo.rsqrt %76 : tensor<2x8x1xf32>
    %78 = stablehlo.broadcast_in_dim %77, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %79 = stablehlo.multiply %74, %78 : tensor<2x8x32xf32>
    %80 = stablehlo.convert %arg3 : (tensor<32xbf16>) -> tensor<32xf32>
    %81 = stablehlo.broadcast_in_dim %80, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %82 = stablehlo.broadcast_in_dim %81, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %83 = stablehlo.multiply %79, %82 : tensor<2x8x32xf32>
    %84 = stablehlo.convert %arg2 : (tensor<32xbf16>) -> tensor<32xf32>
    %85 = stablehlo.broadcast_in_dim %84, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %86 = stablehlo.broadcast_in_dim %85, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %87 = stablehlo.add %83, %86 : tensor<2x8x32xf32>
    %88 = stablehlo.convert %87 : tensor<2x8x32xf32>
    %89 = stablehlo.convert %arg4 : (tensor<32x64xbf16>) -> tensor<32x64xf32>
    %90 = stablehlo.dot_general %88, %89, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x64xf32>) -> tensor<2x8x64xf32>
    %91 = stablehlo.multiply %90, %90 : tensor<2x8x64xf32>
    %92 = stablehlo.multiply %91, %90 : tensor<2x8x64xf32>
    %cst_14 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %93 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %94 = stablehlo.multiply %93, %92 : tensor<2x8x64xf32>
    %95 = stablehlo.add %90, %94 : tensor<2x8x64xf32>
    %cst_15 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %96 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %97 = stablehlo.multiply %96, %95 : tensor<2x8x64xf32>
    %98 = stablehlo.tanh %97 : tensor<2x8x64xf32>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %99 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %100 = stablehlo.add %99, %98 : tensor<2x8x64xf32>
    %cst_17 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %101 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %102 = stablehlo.multiply %101, %100 : tensor<2x8x64xf32>
    %103 = stablehlo.multiply %90, %102 : tensor<2x8x64xf32>
    %104 = stablehlo.convert %103 : tensor<2x8x64xf32>
    %105 = stablehlo.convert %arg5 : (tensor<64x32xbf16>) -> tensor<64x32xf32>
    %106 = stablehlo.dot_general %104, %105, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x64xf32>, tensor<64x32xf32>) -> tensor<2x8x32xf32>
    %107 = stablehlo.add %61, %106 : tensor<2x8x32xf32>
    return %107 : tensor<2x8x32xf32>
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
  func.func private @_where(%arg0: tensor<8x8xi1>, %arg1: tensor<2x2x8x8xf32>, %arg2: tensor<f32>) -> tensor<2x2x8x8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<8x8xi1>) -> tensor<2x2x8x8xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<2x2x8x8xf32>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<2x2x8x8xi1>, tensor<2x2x8x8xf32>
    return %2 : tensor<2x2x8x8xf32>
  }
}
