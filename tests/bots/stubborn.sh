#!/bin/sh
# Writes its pid into the file $1, plays as the shell bot, then ignores the end of its input and
# every signal it can: it lives on (with the same pid) after take5 has gone, unless something
# kills it.
echo $$ > "$1.tmp" && mv "$1.tmp" "$1"
sh "$(dirname "$0")/../../scripts/bots/shell_bot.sh"
trap '' HUP INT TERM PIPE
exec sleep 100000
