#!/bin/sh
# Leaves a child behind (which keeps stdout and stderr open), says "ready", then exits or
# hangs ($2). Records its pid and its child's in the file $1.
sleep 1000 &
echo "$$ $!" > "$1"
printf 'ready\n'
case "$2" in
    exit) exit 0 ;;
    hang) wait ;;
esac
