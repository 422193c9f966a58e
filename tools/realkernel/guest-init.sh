#!/bin/sh
# kmodel real-kernel test: the guest's /init (busybox sh). It runs one test named on the kernel
# command line (km.test=NAME, km.tries=N, km.delay=MS, km.fn=FUNCTION, km.unfairness=N to set
# vm.page_lock_unfairness), prints one line
#   KMODEL-VERDICT <test> <WORD> <details>
# and powers the guest off. Tests (tools/realkernel/README.md):
#   killed-locker  holder locks; victim __folio_lock_killable()s and sleeps; locker folio_lock()s
#                  and sleeps behind it; victim gets SIGKILL and is delayed at the entry of
#                  km.fn (finish_wait); holder unlocks. STRANDED when the page is then unlocked
#                  and the locker still sleeps in D state.
#   no-kill        the same without SIGKILL: the locker must get the lock.
#   no-delay       the same with no delay: how often the race is hit naturally in km.tries tries.
#   other-fn       the delay on another function (km.fn: get_signal, which the killed victim
#                  enters after it has left the wait queue): no strand expected.
PATH=/bin:/sbin
export PATH
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
mount -t devtmpfs devtmpfs /dev 2>/dev/null

TEST=killed-locker TRIES=1 DELAY=2000 FN=finish_wait UNFAIR=
for w in $(cat /proc/cmdline); do
    case "$w" in
        km.test=*) TEST=${w#km.test=} ;;
        km.tries=*) TRIES=${w#km.tries=} ;;
        km.delay=*) DELAY=${w#km.delay=} ;;
        km.fn=*) FN=${w#km.fn=} ;;
        km.unfairness=*) UNFAIR=${w#km.unfairness=} ;;
    esac
done
D=/sys/kernel/debug/kmodel_pagelock
CTL=$D/ctl

say() { echo "KMODEL: $*"; }
verdict() {
    echo "KMODEL-VERDICT $TEST $*"
    finish
}
finish() {
    echo "KMODEL: ---- kernel log (kmodel_pagelock and hung-task lines) ----"
    dmesg | grep -E 'kmodel_pagelock|blocked for more than|hung_task|Call Trace|folio_wait_bit|__folio_lock|ctl_write|Tainted|BUG|WARNING|RIP' | head -n 400
    echo "KMODEL: ---- end ----"
    echo "KMODEL-DONE"
    sync
    reboot -f
    sleep 10
}

# state PID: the one-letter state (R S D Z ...), or - when the task is gone.
state() { sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' /proc/$1/status 2>/dev/null || true; }
wchan() { cat /proc/$1/wchan 2>/dev/null || true; }
slot_status() { grep "^slot $1 " $D/status; }

# wait_queued PID: wait (up to 10 s) until PID sleeps in D state in folio_wait_bit_common, that
# is, until it is on the page's wait queue.
wait_queued() {
    n=0
    while [ $n -lt 200 ]; do
        if [ "$(state $1)" = D ] && [ "$(wchan $1)" = folio_wait_bit_common ]; then
            return 0
        fi
        usleep 50000
        n=$((n + 1))
    done
    say "pid $1 never slept in folio_wait_bit_common (state $(state $1), wchan $(wchan $1))"
    return 1
}

say "kernel $(uname -r), test $TEST, tries $TRIES, delay ${DELAY} ms at $FN"
if ! insmod /kmodel_pagelock.ko delay_fn=$FN; then
    verdict ERROR "insmod kmodel_pagelock.ko failed"
fi
[ -w $CTL ] || verdict ERROR "no $CTL"
if [ -n "$UNFAIR" ]; then
    echo "$UNFAIR" > /proc/sys/vm/page_lock_unfairness || verdict ERROR "cannot set vm.page_lock_unfairness"
fi
say "page_lock_unfairness=$(cat /proc/sys/vm/page_lock_unfairness 2>/dev/null || echo n/a)"

# one_try SLOT KILL DELAYMS: one attempt on page 0 of /tmp/fSLOT. Sets RESULT to STRANDED or
# GOT-LOCK (or ERROR), VICTIM and LOCKER to the pids.
one_try() {
    i=$1 kill=$2 ms=$3 missed=0
    RESULT=ERROR
    echo "kmodel page $i" > /tmp/f$i
    echo "target $i /tmp/f$i" > $CTL || return 1
    echo "lock $i" > $CTL || return 1
    say "try $i: holder (pid $$) has the lock: $(slot_status $i)"
    sh -c "echo cycle_killable $i > $CTL" &
    VICTIM=$!
    wait_queued $VICTIM || return 1
    say "try $i: victim pid $VICTIM queued first (state $(state $VICTIM), wchan $(wchan $VICTIM))"
    sh -c "echo cycle $i > $CTL" &
    LOCKER=$!
    wait_queued $LOCKER || return 1
    say "try $i: locker pid $LOCKER queued second (state $(state $LOCKER), wchan $(wchan $LOCKER)), victim still $(state $VICTIM)"
    if [ "$kill" = 1 ]; then
        if [ "$ms" -gt 0 ]; then
            echo "delay $VICTIM $ms" > $CTL
            kill -9 $VICTIM
            # Poll without forking (read is a shell builtin) until the victim is in the delay.
            n=0 line=
            while :; do
                read -r line < $D/status
                case "$line" in *in_delay=1*) break ;; esac
                n=$((n + 1))
                if [ $n -gt 20000 ]; then
                    say "try $i: the victim never reached the delay at $FN"
                    missed=1
                    break
                fi
            done
            say "try $i: SIGKILL sent, victim in the delay: $line"
        else
            kill -9 $VICTIM
        fi
    fi
    echo "unlock $i" > $CTL
    say "try $i: holder unlocked: $(slot_status $i)"
    # Wait for the victim to finish (it dies, or takes and drops the lock).
    n=0
    while [ $n -lt 100 ] && [ "$(state $VICTIM)" != Z ] && [ -n "$(state $VICTIM)" ]; do
        usleep 50000
        n=$((n + 1))
    done
    sleep 2
    st=$(state $LOCKER)
    say "try $i: 2 s later: $(slot_status $i); victim $(state $VICTIM); locker state $st wchan $(wchan $LOCKER)"
    if [ $missed = 1 ]; then
        RESULT=NO-DELAY-HIT
    elif [ "$st" = D ] && slot_status $i | grep -q 'locked=0'; then
        RESULT=STRANDED
    elif [ "$st" = Z ] || [ -z "$st" ]; then
        RESULT=GOT-LOCK
    else
        RESULT=UNCLEAR
    fi
    return 0
}

# rescue SLOT: a later lock/unlock of the page wakes a stranded locker (PG_waiters is still set).
rescue() {
    echo "cycle $1" > $CTL
    n=0
    while [ $n -lt 100 ] && [ "$(state $LOCKER)" = D ]; do
        usleep 50000
        n=$((n + 1))
    done
    say "try $1: after a later lock/unlock by pid $$: locker state $(state $LOCKER) ($( [ "$(state $LOCKER)" = D ] && echo still asleep || echo it took the lock and exited))"
}

case "$TEST" in
    killed-locker|no-kill|no-delay|other-fn) ;;
    *) verdict ERROR "unknown test $TEST" ;;
esac
kill=1 ms=$DELAY
[ "$TEST" = no-kill ] && kill=0
[ "$TEST" = no-delay ] && ms=0

strands=0 got=0 other=0 t=1
while [ $t -le $TRIES ]; do
    if ! one_try $t $kill $ms; then
        verdict ERROR "try $t: harness step failed"
    fi
    say "try $t: $RESULT"
    case $RESULT in
        STRANDED)
            strands=$((strands + 1))
            if [ $strands = 1 ] && [ "$TEST" = killed-locker ]; then
                # Let the hung-task detector see it.
                echo 4 > /proc/sys/kernel/hung_task_timeout_secs 2>/dev/null
                n=0
                while [ $n -lt 30 ] && ! dmesg | grep -q 'blocked for more than'; do
                    sleep 1
                    n=$((n + 1))
                done
                say "hung-task report: $(dmesg | grep 'blocked for more than' | head -n 1)"
                echo 0 > /proc/sys/kernel/hung_task_timeout_secs 2>/dev/null
            fi
            rescue $t ;;
        GOT-LOCK) got=$((got + 1)) ;;
        *) other=$((other + 1)) ;;
    esac
    t=$((t + 1))
done

summary="$strands/$TRIES tries stranded, $got/$TRIES the locker got the lock, $other/$TRIES unclear (delay ${ms} ms at $FN, kill=$kill, kernel $(uname -r))"
case "$TEST" in
    killed-locker)
        if [ $strands -gt 0 ]; then verdict STRANDED "$summary"; else verdict NOT-STRANDED "$summary"; fi ;;
    no-delay)
        verdict NATURAL "$summary" ;;
    *)
        if [ $strands = 0 ] && [ $other = 0 ]; then verdict OK "$summary"; else verdict CONTROL-FAILED "$summary"; fi ;;
esac
