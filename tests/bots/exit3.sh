#!/bin/sh
# Answers one line, then dies in the middle of the second answer with exit code 3.
IFS= read -r line
printf '%s\n' "$line"
IFS= read -r line
echo "about to die: $line" >&2
printf 'half an ans'
exit 3
