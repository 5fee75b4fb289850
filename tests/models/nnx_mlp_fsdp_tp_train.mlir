module @jit_step attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["fsdp"=4, "tp"=2]> {stablehlo.mesh = {axes = [{name = "fsdp", size = 4 : i64}, {name = "tp", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg1: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg2: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg3: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, %arg4: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, %arg5: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, %arg6: tensor<ui32> {sdy.sharding = #sdy.sharding<@mesh, []>}, %arg7: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {}]>}, %arg8: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {}]>}) -> (tensor<64xf32> {jax.result_info = "result[0][0]['b1'].value", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x64xf32> {jax.result_info = "result[0][0]['w1'].value", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<64x16xf32> {jax.result_info = "result[0][0]['w2'].value", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<64xf32> {jax.result_info = "result[0][1]['opt_state'][0]['trace']['b1'].value", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, tensor<32x64xf32> {jax.result_info = "result[0][1]['opt_state'][0]['trace']['w1'].value", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp"}, {"tp"}]>}, tensor<64x16xf32> {jax.result_info = "result[0][1]['opt_state'][0]['trace']['w2'].value", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {"fsdp"}]>}, tensor<ui32> {jax.result_info = "result[0][1]['step'].value", sdy.sharding = #sdy.sharding<@mesh, []>}, tensor<f32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, []>}) {
    %0 = stablehlo.dot_general %arg7, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %3 = stablehlo.add %0, %2 : tensor<16x64xf32>
    %4 = call @relu(%3) : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %6 = stablehlo.compare GT, %3, %5, FLOAT : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xi1>
    %7 = sdy.sharding_constraint %4 <@mesh, [{"fsdp"}, {"tp"}]> : tensor<16x64xf32>
    %8 = stablehlo.dot_general %7, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<64x16xf32>) -> tensor<16x16xf32>
    %9 = stablehlo.subtract %8, %arg8 : tensor<16x16xf32>
    %10 = stablehlo.multiply %9, %9 : tensor<16x16xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %12 = stablehlo.multiply %11, %9 : tensor<16x16xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.reduce(%10 init: %cst_1) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %14 = stablehlo.divide %13, %cst_2 : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_4 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %15 = stablehlo.divide %cst_3, %cst_4 : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %17 = stablehlo.multiply %16, %12 : tensor<16x16xf32>
    %18 = stablehlo.dot_general %17, %7, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x16xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %19 = stablehlo.transpose %18, dims = [1, 0] : (tensor<16x64xf32>) -> tensor<64x16xf32>
    %20 = stablehlo.dot_general %17, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x16xf32>, tensor<64x16xf32>) -> tensor<16x64xf32>
    %21 = sdy.sharding_constraint %20 <@mesh, [{"fsdp"}, {"tp"}]> : tensor<16x64xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %23 = stablehlo.select %6, %21, %22 : tensor<16x64xi1>, tensor<16x64xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.reduce(%23 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<16x64xf32>, tensor<f32>) -> tensor<64xf32>
    %25 = stablehlo.reshape %24 : (tensor<64xf32>) -> tensor<1x64xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %26 = stablehlo.reduce(%25 init: %cst_7) applies stablehlo.add across dimensions = [0] : (tensor<1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %27 = stablehlo.dot_general %23, %arg7, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<16x32xf32>) -> tensor<64x32xf32>
    %28 = stablehlo.transpose %27, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %cst_8 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %30 = stablehlo.multiply %29, %arg3 : tensor<64xf32>
    %31 = stablehlo.add %26, %30 : tensor<64xf32>
    %cst_9 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %33 = stablehlo.multiply %32, %arg4 : tensor<32x64xf32>
    %34 = stablehlo.add %28, %33 : tensor<32x64xf32>
    %cst_10 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %36 = stablehlo.multiply %35, %arg5 : tensor<64x16xf32>
    %37 = stablehlo.add %19, %36 : tensor<64x16xf32>
    %cst_11 = stablehlo.constant dense<-0.00999999977> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %39 = stablehlo.multiply %38, %31 : tensor<64xf32>
    %cst_12 = stablehlo.constant dense<-0.00999999977> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %41 = stablehlo.multiply %40, %34 : tensor<32x64xf32>
    %cst_13 = stablehlo.constant dense<-0.00999999977> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %43 = stablehlo.multiply %42, %37 : tensor<64x16xf32>
    %44 = stablehlo.add %arg0, %39 : tensor<64xf32>
    %45 = stablehlo.add %arg1, %41 : tensor<32x64xf32>
    %46 = stablehlo.add %arg2, %43 : tensor<64x16xf32>
    %c = stablehlo.constant dense<1> : tensor<ui32>
    %47 = stablehlo.add %arg6, %c : tensor<ui32>
    return %44, %45, %46, %31, %34, %37, %47, %14 : tensor<64xf32>, tensor<32x64xf32>, tensor<64x16xf32>, tensor<64xf32>, tensor<32x64xf32>, tensor<64x16xf32>, tensor<ui32>, tensor<f32>
  }
  func.func private @relu(%arg0: tensor<16x64xf32>) -> tensor<16x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<16x64xf32>
    return %1 : tensor<16x64xf32>
  }
}
