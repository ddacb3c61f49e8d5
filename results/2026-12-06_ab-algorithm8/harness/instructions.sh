#!/bin/bash
# cg.sh BIN SUITE WAY KERNELS -> instructions per verify
BIN=$1; S=$2; W=$3; K=$4; N=${5:-50}
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null $BIN cg $S $W $1 $K 2>&1 | grep "Collected" | awk '{print $4}' | tr -d ,; }
a=$(ir $N); b=$(ir 0)
echo "$S $W $K $(( (a-b)/N ))"
