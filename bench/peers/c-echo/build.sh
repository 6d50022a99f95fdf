#!/bin/sh
# Builds the C peers of the RPC benchmark next to their sources: echo (the server) and rpcload
# (a small closed-loop load generator). Needs gcc.
set -e
cd "$(dirname "$0")"
gcc -O2 -Wall -pthread -o echo echo.c
gcc -O2 -Wall -o rpcload rpcload.c
