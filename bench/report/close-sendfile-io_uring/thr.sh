#!/bin/bash
# per-thread CPU ticks of PID across a command
P=$1; shift
snap() { for t in /proc/$P/task/*; do echo "$(basename $t) $(cat $t/comm | tr ' ' '_') $(awk '{print $14+$15, $14, $15}' $t/stat)"; done | sort; }
snap > $WORK/thr.before
"$@"
snap > $WORK/thr.after
join <(cut -d' ' -f1-5 $WORK/thr.before) <(cut -d' ' -f1,3-5 $WORK/thr.after) | awk '{d=$6-$3; du=$7-$4; ds=$8-$5; if (d>0) print $2, d, "user", du, "sys", ds}' | sort -k2 -n -r
