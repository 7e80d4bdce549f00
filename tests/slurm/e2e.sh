#!/bin/sh
# The job_submit/trainsize plugin in a real Slurm (Debian 12's 22.05), on this machine
# only: munged, slurmctld and slurmd started from a temporary folder (8 fake GPUs: gres.conf
# files that are links to /dev/null), four batch jobs submitted, every daemon this script
# started stopped by its PID. Needs root and Debian's slurmctld slurmd slurm-client munge.
# Usage: e2e.sh PLUGIN.so
set -eu
plugin=$(readlink -f "${1:?usage: e2e.sh PLUGIN.so}")
dir=$(mktemp -d /tmp/trainsize-slurm.XXXXXX)
chmod 755 "$dir"
pids=""
fail() {
    echo "slurm e2e: $*" >&2
    tail -n 20 "$dir/log/slurmctld.out" "$dir/log/slurmd.out" >&2 2>/dev/null || true
    exit 1
}
cleanup() {
    for pid in $pids; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in $pids; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$dir"
}
trap cleanup EXIT INT TERM

mkdir -p "$dir/state" "$dir/spool" "$dir/log" "$dir/plugins" "$dir/jobs"
chown slurm "$dir/state" "$dir/log"
chmod 777 "$dir/jobs"
cp "$plugin" "$dir/plugins/job_submit_trainsize.so"
for i in 0 1 2 3 4 5 6 7; do ln -s /dev/null "$dir/nvidia$i"; done
cat > "$dir/gres.conf" <<CONF
AutoDetect=off
NodeName=localhost Name=gpu File=$dir/nvidia[0-7]
CONF
cat > "$dir/trainsize.conf" <<CONF
gpu = h100-80gb
host-ram = 2TiB
CONF
cat > "$dir/slurm.conf" <<CONF
ClusterName=trainsize
SlurmctldHost=localhost
SlurmUser=slurm
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MailProg=/bin/true
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
GresTypes=gpu
PluginDir=/usr/lib/x86_64-linux-gnu/slurm-wlm:$dir/plugins
JobSubmitPlugins=trainsize
NodeName=localhost NodeAddr=127.0.0.1 CPUs=1 RealMemory=500 Gres=gpu:8 State=UNKNOWN
PartitionName=gpu Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"

if ! munge -n >/dev/null 2>&1; then
    install -d -o munge -g munge -m0755 /run/munge
    setpriv --reuid=munge --regid=munge --init-groups /usr/sbin/munged --foreground \
        >"$dir/log/munged.out" 2>&1 &
    pids="$! $pids"
    i=0; until munge -n >/dev/null 2>&1; do i=$((i + 1)); [ $i -lt 50 ] || fail "munged did not start"; sleep 0.1; done
fi
/usr/sbin/slurmctld -D -c -f "$dir/slurm.conf" >"$dir/log/slurmctld.out" 2>&1 &
pids="$! $pids"
/usr/sbin/slurmd -D -N localhost -f "$dir/slurm.conf" >"$dir/log/slurmd.out" 2>&1 &
pids="$! $pids"
i=0
until scontrol ping 2>/dev/null | grep -q UP && [ "$(sinfo -h -N -o %T 2>/dev/null)" = idle ]; do
    i=$((i + 1)); [ $i -lt 300 ] || fail "the node did not come up (sinfo: $(sinfo -h -N -o %T 2>&1))"; sleep 0.1
done

job() { printf '#!/bin/sh\n%s\ntrue\n' "$1" > "$dir/jobs/$2.sh"; echo "$dir/jobs/$2.sh"; }

# rejected NAME DIRECTIVE LINE: sbatch refuses the job and shows the plugin's LINE.
rejected() {
    if out=$(sbatch --gres=gpu:8 -o /dev/null "$(job "$2" "$1")" 2>&1); then
        fail "$1: accepted: $out"
    fi
    echo "$out" | grep -q "$3" || fail "$1: no \"$3\" line: $out"
    echo "$out" | grep trainsize
}

# ran NAME DIRECTIVE [LINE]: the job is accepted (with LINE shown, or no trainsize line at
# all without one) and runs to its end.
ran() {
    out=$(sbatch --wait --gres=gpu:8 -o /dev/null "$(job "$2" "$1")" 2>&1) || fail "$1: failed: $out"
    if [ -n "${3:-}" ]; then
        echo "$out" | grep -q "$3" || fail "$1: no \"$3\" line: $out"
        echo "$out" | grep trainsize
    elif echo "$out" | grep -q trainsize; then
        fail "$1: sized although it has no directives: $out"
    fi
}

rejected big "#TRAINSIZE --model llama-2-70b --seq 4096" "trainsize: does not fit: peak"
ran small "#TRAINSIZE --model gpt2 --seq 1024" "trainsize: fits: peak"
rejected bad "#TRAINSIZE --model no-such-model" "trainsize: model: unknown preset"
ran plain "# an ordinary job"

echo "slurm e2e: 4 jobs as expected (rejected, ran, rejected, ran untouched)"
