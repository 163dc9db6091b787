#!/bin/sh
# Leaves two daemons behind, then plays as the shell bot. Both daemons sleep for $1 seconds (so a
# test can find them by that number), hold the bot's stdout and stderr open, and ignore the end
# of its input: one runs in a session of its own (`setsid`, out of the bot's process group), the
# other is also the orphan of a double fork (its parent exits at once).
setsid sleep "$1" &
(setsid sh -c 'sleep "$1" &' daemon "$1" &)
exec sh "$(dirname "$0")/../../scripts/bots/shell_bot.sh"
