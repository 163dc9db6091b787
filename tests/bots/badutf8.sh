#!/bin/sh
# A line that is not UTF-8 between two good ones.
printf 'ok\n\377\376bad\377\nafter\n'
exec sleep 1000
