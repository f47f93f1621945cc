#!/bin/sh
exec sh "$srcdir/check-calc.sh" ./calc 100 201
