# kmodel real-kernel test: reads a guest's console log and prints the test's verdict line.
# Usage: awk -v test=NAME -f verdict.awk CONSOLE-LOG
# Exit status (the verdict):
#   0  the expected outcome: killed-locker STRANDED; no-kill and other-fn OK; no-delay NATURAL
#      (a count, never a failure)
#   1  the other outcome: killed-locker NOT-STRANDED, or a control that stranded (CONTROL-FAILED)
#   2  no verdict: the guest reported ERROR, panicked, or stopped before its verdict line
{ sub(/\r$/, "") }
/Kernel panic/ { panic = $0 }
$1 == "KMODEL-VERDICT" && $2 == test && !seen {
    seen = 1
    word = $3
    line = $0
}
$1 == "KMODEL-DONE" { done = 1 }
END {
    if (!seen) {
        if (panic != "")
            print "verdict: none (kernel panic: " panic ")"
        else
            print "verdict: none (no KMODEL-VERDICT line for " test ": the guest did not finish)"
        exit 2
    }
    print line
    if (word == "ERROR")
        exit 2
    if (test == "killed-locker")
        exit (word == "STRANDED" ? 0 : (word == "NOT-STRANDED" ? 1 : 2))
    if (test == "no-delay")
        exit (word == "NATURAL" ? 0 : 2)
    exit (word == "OK" ? 0 : (word == "CONTROL-FAILED" ? 1 : 2))
}
