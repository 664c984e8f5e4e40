# session_lib.sh - sourced by the device-run scripts (gpu_session.sh, probe_session.sh,
# decode_session.sh, decode_ab.sh, prefill_iter.sh): the log, the elapsed-time stamps, the card line
# and the GPU build (libmxsim + kernels, no RTL / SystemC / bench).
#   session_start DEST LOG   creates DEST, sends stdout and stderr to the screen and DEST/LOG
#   stamp TEXT               "[N s] TEXT", N seconds since session_start
#   card_line                name, driver, max SM clock, power limit of the GPU
#   build_gpu SRC BUILD LOG TARGET...   configure and build TARGETs; the output goes to LOG
session_start() {
  mkdir -p "$1"
  exec > >(tee "$1/$2") 2>&1
  T0=$(date +%s)
}
stamp() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
#   gpu_sel                  the GPU CUDA's device 0 is: the first entry of CUDA_VISIBLE_DEVICES (an index or
#                            a UUID, as nvidia-smi -i takes them), else 0; a MIG instance (MIG-<uuid>, or the
#                            older MIG-GPU-<uuid>/<gi>/<ci>) as the UUID of the GPU it is a slice of, which
#                            is what nvidia-smi -i takes (its name and power are the board's; CUDA's SM count,
#                            which mxsim-gpu info logs and the roofline uses, is the slice's)
#   card_dir_name            that GPU's name as a folder name (characters other than A-Z a-z 0-9 . _ - as '-')
# CUDA numbers GPUs fastest first unless told otherwise; in PCI order its device 0 is nvidia-smi's
export CUDA_DEVICE_ORDER=PCI_BUS_ID
gpu_sel() {
  local v=${CUDA_VISIBLE_DEVICES:-0}
  v=${v%%,*}
  case $v in
    MIG-GPU-*) v=${v#MIG-}; echo "${v%%/*}" ;;
    MIG-*) nvidia-smi -L 2>/dev/null | awk -v u="$v" '/^GPU /{g=$0; sub(/.*UUID: /, "", g); sub(/\).*/, "", g)} index($0, u){print g; exit}' ;;
    *) echo "$v" ;;
  esac
}
card_dir_name() { nvidia-smi -i "$(gpu_sel)" --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr -c 'A-Za-z0-9._\n-' '-' | tr -d '\n'; }
card_line() { nvidia-smi -i "$(gpu_sel)" --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader; }
build_gpu() {
  local src=$1 dir=$2 log=$3
  shift 3
  cmake -S "$src" -B "$dir" -DMXSIM_WITH_CUDA=ON -DMXSIM_BUILD_BENCH=OFF -DMXSIM_WITH_RTL=OFF \
    -DMXSIM_WITH_SYSTEMC=OFF -DCMAKE_BUILD_TYPE=Release > "$log" 2>&1 &&
    cmake --build "$dir" -j"$(nproc)" --target "$@" >> "$log" 2>&1
}
