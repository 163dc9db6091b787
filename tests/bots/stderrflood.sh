#!/bin/sh
# Writes 1 MB to stderr before each answer (an echo).
n=0
while IFS= read -r line; do
    n=$((n + 1))
    head -c 1000000 /dev/zero | tr '\0' e | fold -w 99 >&2
    echo "flood $n done" >&2
    printf '%s\n' "$line"
done
