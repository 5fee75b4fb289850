module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[4,2]<=[8]}"}, %arg1: tensor<16x8xf32> {mhlo.sharding = "{devices=[8,1]<=[4,2]T(1,0)}"}) -> (tensor<8x16xf32> {jax.result_info = "result", mhlo.sharding = "{devices=[1,4,2]<=[8] last_tile_dim_replicate}"}) {
    %0 = stablehlo.sine %arg0 : tensor<8x16xf32>
    %1 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<16x8xf32>) -> tensor<8x16xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<8x16xf32>
    return %2 : tensor<8x16xf32>
  }
}
