// RUN: not kiln-opt %s -kiln-vectorize=tail=sometimes 2>&1 | FileCheck %s
// CHECK: kiln-vectorize: tail must be auto, mask or epilogue, got 'sometimes'
module {
}
