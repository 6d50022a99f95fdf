#!/bin/sh
# Builds the C peers of the RPC benchmark next to their sources: echo (the server) and rpcload
# (the reference closed-loop client portshare-bench calibrates against). Needs gcc.
set -e
cd "$(dirname "$0")"
gcc -O2 -Wall -pthread -o echo echo.c
gcc -O2 -Wall -pthread -o rpcload rpcload.c
