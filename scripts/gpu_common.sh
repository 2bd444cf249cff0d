# Sourced by the GPU figure scripts (gpu_figures.sh, gpu_offload.sh) with NAME set: the output
# folder $OUT (default /tmp/gpu-$NAME), the work folder $W whose files `pack` tars into
# $OUT/$NAME.tgz (a device call returns at most 8 files), $PY, `stamp` (seconds since the
# start), and `install_fusioncut`: fusioncut built against the machine's own torch, or the
# script ends.
OUT=${OUT:-/tmp/gpu-$NAME}
W=/tmp/gpu-$NAME-work
mkdir -p "$OUT" "$W"
pack() { tar czf "$OUT/$NAME.tgz" -C "$W" . 2>/dev/null; }
PY=${PYTHON:-python3}
export PIP_NO_INDEX=1 CMAKE_BUILD_PARALLEL_LEVEL=16 PYTHONUNBUFFERED=1
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
install_fusioncut() {
  stamp "install"
  timeout 120 $PY -m pip install -q --no-build-isolation --no-deps -C build-dir=/tmp/fcbuild . \
    >"$W/install.log" 2>&1 || { stamp "install failed"; pack; tail -30 "$W/install.log"; exit 1; }
}
