#!/bin/sh
# Writes a 10 MB line, then good lines. $1 says how:
#   nl      the long line ends with a newline, then "good"
#   nonl    no newline: 0.3 s later "good" arrives glued to it (part of the long line), then "next"
#   hang    no newline, then hangs
#   exit    no newline, then exits
big() { head -c 10000000 /dev/zero | tr '\0' a; }
case "$1" in
    nl) big; printf '\ngood\n' ;;
    nonl) big; sleep 0.3; printf 'good\nnext\n' ;;
    hang) big; exec sleep 1000 ;;
    exit) big; exit 0 ;;
esac
sleep 1000
