#!/bin/sh
# Sleeps a minute on its first `ask` (far past the clock a test gives it), then answers every
# request at once: the first card of its hand, row 0. Each `ask` line also goes to stderr, so a
# test can see the clock's keys. Classic only.
set -f
slept=no
while IFS= read -r line; do
    case $line in
    hello*) echo "hello version=1 name=sleeper events=no" ;;
    ask*)
        echo "$line" >&2
        if [ "$slept" = no ]; then
            slept=yes
            sleep 60
        fi
        case $line in
        "ask row"*) echo "row 0" ;;
        *)
            for word in $line; do
                case $word in
                hand=*) hand=${word#hand=}; echo "play ${hand%%,*}" ;;
                esac
            done
            ;;
        esac
        ;;
    bye) exit 0 ;;
    esac
done
