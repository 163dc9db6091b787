#!/bin/sh
# Never reads its stdin.
printf 'ready\n'
exec sleep 1000
