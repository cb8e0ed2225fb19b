# The boot run.sh and package.sh share (sourced, not run): the second archive staged over the
# image's, QEMU under TCG (no KVM: the machines this runs on have no virtualisation extensions)
# with two emulated CPUs on two host threads, the results folder shared with the guest over 9p.
#
#   boot_stage                  makes $stage (removed at exit); the caller fills $stage/root
#   boot_vm NAME IMAGE MEMORY_MB LIMIT_S RESULTS [KERNEL_ARGUMENT...]
#
# The kernel unpacks the second archive over the first: /init and whatever else $stage/root holds
# come from it. boot_vm exits with the guest's status (RESULTS/exit-status, which the guest
# writes last), or 1 when QEMU failed, ran out of time or the guest never finished.

boot_stage() {
    stage=$(mktemp -d)
    trap 'rm -rf "$stage"' EXIT
    mkdir -p "$stage/root"
}

boot_vm() {
    local name=$1 image=$2 memory=$3 limit=$4 results=$5
    shift 5
    rm -f "$results/exit-status"
    (cd "$stage/root" && find . -print0 | cpio --null -o -H newc --quiet) > "$stage/boot.cpio"
    cat "$image/root.cpio" "$stage/boot.cpio" > "$stage/initrd.cpio"
    local started=$SECONDS status=0
    timeout --kill-after=10 "$limit" qemu-system-x86_64 \
        -accel tcg,thread=multi -cpu max -smp 2 -m "$memory" \
        -nodefaults -display none -monitor none -no-reboot \
        -serial "file:$results/console.log" \
        -kernel "$image/vmlinuz" -initrd "$stage/initrd.cpio" \
        -append "console=ttyS0 panic=-1 quiet rdinit=/init $*" \
        -virtfs "local,path=$results,mount_tag=results,security_model=none,id=results" \
        || status=$?
    echo "$name: the VM ran $((SECONDS - started)) s" >&2
    if [[ $status -ne 0 ]]; then
        echo "$name: QEMU exited $status (124: still running after $limit s); the guest's last lines:" >&2
        tail -20 "$results/guest.log" "$results/console.log" >&2 2>/dev/null || true
        exit 1
    fi
    [[ -f $results/exit-status ]] || { echo "$name: the guest never finished; see $results/guest.log and console.log" >&2; exit 1; }
    exit "$(cat "$results/exit-status")"
}
