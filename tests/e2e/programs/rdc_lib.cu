// The other half of the -rdc=true program (rdc_main.cu).
__device__ int factor = 3;

__device__ int scale(int x) { return x * factor; }
