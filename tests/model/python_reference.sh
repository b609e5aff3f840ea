#!/usr/bin/env bash
# Exported weights vs the PyTorch reference module:
#   python_reference.sh PYTHON EXPORT_FIXTURE HYDRA MODEL_REFERENCE_PY WORK_DIR
# Exit 77 (skipped) when PYTHON has no torch.
set -euo pipefail
python=$1 fixture=$2 hydra=$3 reference=$4 work=$5
if ! "$python" -c 'import torch' 2>/dev/null; then
  echo "SKIP: $python cannot import torch"
  exit 77
fi
rm -rf "$work"
"$fixture" "$work"
"$hydra" export "$work/net" --out "$work/net.pt"
"$hydra" export "$work/grp.ckpt" --out "$work/grp.pt"
"$python" "$reference" check --net "$work/net.pt" --grp "$work/grp.pt" --io "$work/io.pt"
