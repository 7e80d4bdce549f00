#!/bin/sh
# The job_submit/trainsize plugin in a real Slurm (Debian 12's 22.05), on this machine
# only: munged, slurmctld and slurmd started from a temporary folder (8 fake GPUs: gres.conf
# files that are links to /dev/null), batch jobs submitted (sized, rejected, refused for
# what a job may not say or for input longer than is read, and untouched), every daemon
# this script started stopped by its PID; rollout GPUs counted inside the allocation, a
# claim outside it refused naming the job; a partition that admits jobs on the high bound
# of their memory (admit-on = high). Needs root and Debian's slurmctld slurmd slurm-client
# munge.
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
[partition strict]
admit-on = high
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
PartitionName=strict Nodes=localhost MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"

if ! munge -n >/dev/null 2>&1; then
    install -d -o munge -g munge -m0755 /run/munge
    setpriv --reuid=munge --regid=munge --init-groups /usr/sbin/munged --foreground \
        >"$dir/log/munged.out" 2>&1 &
    pids="$! $pids"
    i=0; until munge -n >/dev/null 2>&1; do i=$((i + 1)); [ $i -lt 50 ] || fail "munged did not start"; sleep 0.1; done
fi
# A FIFO as trainsize.conf: slurmctld stops at start with the plugin's error, not hung in
# an open that waits for a writer (where it ignores SIGTERM: timeout kills it).
mkdir "$dir/fifo"
sed "s|^SlurmctldLogFile=.*|SlurmctldLogFile=$dir/log/fifo.log|" "$dir/slurm.conf" >"$dir/fifo/slurm.conf"
cp "$dir/gres.conf" "$dir/fifo/"
mkfifo "$dir/fifo/trainsize.conf"
rc=0
SLURM_CONF="$dir/fifo/slurm.conf" timeout -k 2 20 /usr/sbin/slurmctld -D -c -f "$dir/fifo/slurm.conf" \
    >"$dir/log/fifo.out" 2>&1 || rc=$?
case $rc in
0 | 124 | 137) fail "slurmctld with a FIFO as trainsize.conf: exit status $rc (124, 137: hung)" ;;
esac
grep -q "trainsize.conf: not a regular file" "$dir/log/fifo.out" "$dir/log/fifo.log" 2>/dev/null ||
    fail "slurmctld with a FIFO as trainsize.conf: no error logged: $(tail -n 5 "$dir/log/fifo.out")"
echo "slurm e2e: a FIFO as trainsize.conf is refused at start"

/usr/sbin/slurmctld -D -c -f "$dir/slurm.conf" >"$dir/log/slurmctld.out" 2>&1 &
pids="$! $pids"
/usr/sbin/slurmd -D -N localhost -f "$dir/slurm.conf" >"$dir/log/slurmd.out" 2>&1 &
pids="$! $pids"
i=0
until scontrol ping 2>/dev/null | grep -q UP && [ "$(sinfo -h -N -p gpu -o %T 2>/dev/null)" = idle ]; do
    i=$((i + 1)); [ $i -lt 300 ] || fail "the node did not come up (sinfo: $(sinfo -h -N -p gpu -o %T 2>&1))"; sleep 0.1
done

job() { printf '#!/bin/sh\n%s\ntrue\n' "$1" > "$dir/jobs/$2.sh"; echo "$dir/jobs/$2.sh"; }

# refused NAME SCRIPT LINE [SBATCH OPTIONS...]: sbatch refuses the job and shows the
# plugin's LINE, as printable text (no raw control byte reaches the prompt).
refused() {
    name=$1 script=$2 line=$3
    shift 3
    if out=$(sbatch --gres=gpu:8 -o /dev/null "$@" "$script" 2>&1); then
        fail "$name: accepted: $out"
    fi
    printf '%s\n' "$out" | grep -q -e "$line" || fail "$name: no \"$line\" line: $out"
    if printf '%s\n' "$out" | LC_ALL=C grep -q '[[:cntrl:]]'; then
        fail "$name: a control byte at the prompt: $out"
    fi
    printf '%s\n' "$out" | grep trainsize
}

# rejected NAME DIRECTIVE LINE: a job of DIRECTIVE, refused with LINE.
rejected() { refused "$1" "$(job "$2" "$1")" "$3"; }

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

# spaces N: N spaces, without a newline.
spaces() { head -c "$1" /dev/zero | tr '\0' ' '; }

rejected big "#TRAINSIZE --model llama-2-70b --seq 4096" "trainsize: does not fit: peak"
ran small "#TRAINSIZE --model gpt2 --seq 1024" "trainsize: fits: peak"
rejected bad "#TRAINSIZE --model no-such-model" "trainsize: model: unknown preset"
ran plain "# an ordinary job"

# The hardware is the allocation's and trainsize.conf's: llama-2-70b under ZeRO-3 does not
# fit 8 h100-80gb (180.6 GiB per GPU), and a directive that would make it fit is refused,
# naming the job (sbatch names it after its script; it has no id before it is queued).
zero3="#TRAINSIZE --model llama-2-70b --zero 3 --recompute full"
rejected zero3 "$zero3" "trainsize: does not fit: peak"
rejected gpus "$zero3 --gpus 64" \
    "trainsize: job \"gpus.sh\" (uid [0-9]*): --gpus is set by the job's allocation, not by a directive"
rejected gpu-memory "$zero3 --gpu_Memory=1e15" \
    "trainsize: job \"gpu-memory.sh\" (uid [0-9]*): --gpu-memory is set by the site (trainsize.conf)"
rejected gpu "$zero3 --GPU gb300" "trainsize: job \"gpu.sh\" (uid [0-9]*): --gpu is set by the site (trainsize.conf)"

# The rollout engines' GPUs (rollout separate) come out of the job's 8: inside them the rest
# train and are sized (llama-2-13b under ZeRO-3 fits 8 h100-80gb, not the 4 left beside 4
# engines); a claim outside them is refused, in the script or the comment.
rl="#TRAINSIZE --method grpo --rollout separate"
ran rollout-inside "$rl --model gpt2 --rollout-gpus 4" "fits: .*(training on 4 of the 8 GPUs, 4 for rollout)"
rejected rollout-13b "$rl --model llama-2-13b --zero 3 --seq 4096 --rollout-gpus 4" \
    "does not fit: peak .*(training on 4 of the 8 GPUs, 4 for rollout)"
rejected rollout-outside "$rl --model gpt2 --rollout-gpus 16" \
    "trainsize: job \"rollout-outside.sh\" (uid [0-9]*): --rollout-gpus 16 does not fit inside the job's allocation of 8 GPUs"
rejected rollout-all "$rl --model gpt2 --Rollout_GPUs=8" "--rollout-gpus 8 does not fit inside the job's allocation"
refused rollout-comment "$(job "# directives in the comment" rollout-comment)" \
    "trainsize: job \"rollout-comment.sh\" (uid [0-9]*): --rollout-gpus 9 does not fit" \
    --comment "trainsize: --method grpo --rollout separate --model gpt2 --rollout-gpus 9"

# admit-on = high in the strict partition: llama-2-7b under ZeRO-3 at 2 x 4608 tokens needs
# 70.6 GiB of an h100-80gb's 79.2, up to 81.7 at the high bound (x 1.16): refused there, with
# advice that fits at the high bound.
refused admit-high "$(job "#TRAINSIZE --model llama-2-7b --zero 3 --seq 4608 --micro-batch 2" admit-high)" \
    "trainsize: does not fit at the high bound: needs up to .* admit-on = high (trainsize.conf); fits at the high bound with --" \
    -p strict

# Input longer than is read is refused, never cut. A comment past 2 KiB: the old cut at
# byte 2048 read its --micro-batch 16 as 1 and said a 467.9 GiB job fits (slurmctld 22.05
# refuses a comment over 1024 bytes itself, after the plugins).
big7b="--model llama-2-7b --zero 3 --seq 4096"
refused long-comment "$(job "# directives in the comment" long-comment)" "longer than 2048 bytes" \
    --comment "trainsize: $big7b$(spaces $((2032 - ${#big7b})))--micro-batch 16"
# A directive line across byte 65536 of the script (the old scan's end, which cut it to
# --micro-batch 1), and directives wholly past it: the whole script is read.
head="#TRAINSIZE $big7b"
pad=$((65536 - 12 - ${#head} - 16)) # its "6" at byte 65536
rejected long-line "#$(spaces $pad)
$head --micro-batch 16" "trainsize: does not fit: peak"
rejected past-64k "#TRAINSIZE $big7b
#$(spaces 70000)
#TRAINSIZE --micro-batch 16" "trainsize: does not fit: peak"

# What a job writes comes back escaped: an ESC in a directive is shown as \x1b.
rejected escape "$(printf '#TRAINSIZE \033[31mred --model gpt2')" 'not an option: "\\x1b\[31mred"'
rejected escape-value "$(printf '#TRAINSIZE --model \033]0;owned\007')" "trainsize: model: unknown preset"

echo "slurm e2e: 19 jobs as expected (sized, rejected, refused, ran untouched)"
