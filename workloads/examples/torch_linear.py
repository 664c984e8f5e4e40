#!/usr/bin/env python3
"""Quantizes a PyTorch nn.Linear's weight to MXINT8 with each numerics profile, bit-exactly, and
runs the layer through mxsim's GEMM (the accelerator's arithmetic contract).

For each profile: the MXTensor of the weight (from the torch tensor directly, identical to the
NumPy copy's, and from its bf16 copy), the dequantized weight's SQNR, the output SQNR of mxsim's
GEMM and of the PyTorch layer with the dequantized weight, against float64.  Exits 77
(skipped) when torch is not installed.

    pip install ./python torch && python3 workloads/examples/torch_linear.py
"""
import sys

import numpy as np

import mxsim

try:
    import torch
except ImportError:
    print("torch is not installed: skipped", file=sys.stderr)
    sys.exit(77)


def main():
    torch.manual_seed(0)
    layer = torch.nn.Linear(256, 64, bias=False)
    x = torch.randn(32, 256)
    ref = (x.double() @ layer.weight.detach().double().T).numpy()
    print(f"{'profile':<13} {'weight SQNR dB':>14} {'GEMM SQNR dB':>14} {'torch W_q SQNR dB':>16}")
    for profile in mxsim.PROFILES:
        w = mxsim.quantize(layer.weight, group_size=32, profile=profile)  # torch tensor in
        a = mxsim.quantize(x, group_size=32, profile=profile)
        # bit-exact: the same bytes as quantizing the NumPy copy (what `mxsim quantize` reads)
        w_np = mxsim.quantize(layer.weight.detach().numpy(), group_size=32, profile=profile)
        assert np.array_equal(w.mantissa, w_np.mantissa) and np.array_equal(w.scale, w_np.scale)
        wq = mxsim.dequantize(w)
        y = mxsim.gemm(a, w)
        w_sqnr = mxsim.compare(layer.weight.detach().numpy(), wq)["sqnr_db"]
        y_sqnr = mxsim.compare(ref.astype(np.float32), y)["sqnr_db"]
        w16 = mxsim.quantize(layer.weight.detach().to(torch.bfloat16), group_size=32, profile=profile)
        # the layer with its weight replaced by the dequantized MXINT8 weight, in PyTorch
        q = torch.nn.Linear(256, 64, bias=False)
        with torch.no_grad():
            q.weight.copy_(torch.from_numpy(np.array(wq)))
            yq = q(x).numpy()
        yq_sqnr = mxsim.compare(ref.astype(np.float32), yq)["sqnr_db"]
        print(f"{profile:<13} {w_sqnr:14.2f} {y_sqnr:14.2f} {yq_sqnr:16.2f}  G={w16.group_size} (bf16 in)")

if __name__ == "__main__":
    main()
