#!/bin/sh
# Never answers. Records its pid and its child's in the file $1.
sleep 1000 &
echo "$$ $!" > "$1"
wait
