#!/bin/sh
exec sh "$srcdir/check-calc.sh" ./calc 10 21
