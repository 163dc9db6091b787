#!/bin/sh
# Echo bot: answers every line with the same line.
while IFS= read -r line; do
    printf '%s\n' "$line"
done
