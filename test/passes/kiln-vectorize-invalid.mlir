// RUN: kiln-opt %s -split-input-file -kiln-vectorize -verify-diagnostics

// expected-error @below {{kiln-vectorize: vector-bits must be 128, 256 or 512, got 100}}
module attributes {kiln.vector_bits = 100 : i64} {
}

// -----

// expected-error @below {{kiln-vectorize: the module's kiln.vector_isa must be one of sse, avx, avx2, avx512, got 'neon'}}
module attributes {kiln.vector_isa = "neon"} {
}
