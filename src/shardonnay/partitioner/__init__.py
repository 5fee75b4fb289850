"""The SPMD partitioner: a program with shardings to the program every device runs."""
