#!/bin/sh
# Garbage printer: unasked noise first (control characters, CRLF, an empty line, bytes that
# are not UTF-8), then "END"; after that it echoes each line, followed by two unasked "spam".
printf 'hello there\r\n'
printf '\n'
printf '\001\002\033[31m red \033[0m\t tab\n'
printf 'caf\303\251 \342\202\254\n'
printf '\377\376 not utf-8\n'
printf 'END\n'
while IFS= read -r line; do
    printf '%s\n' "$line"
    printf 'spam\n'
    printf 'spam\n'
done
