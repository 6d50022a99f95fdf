#!/usr/bin/env bash
# Class by class, where two histogram-per-conn.sh outputs differ (B per connection, B - A), largest first.
# usage: hist-diff.sh A.txt B.txt
awk 'FNR==1 {f++} $1 ~ /^[0-9.]+$/ { if (f==1) a[$3]=$1; else b[$3]=$1; k[$3]=1 }
  END { for (c in k) { d=b[c]-a[c]; if (d*d >= 4) printf "%8.1f  %s\n", d, c } }' "$1" "$2" | sort -n
