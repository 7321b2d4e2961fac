# tl version and install paths.
VERSION = 0.1.0
PREFIX = /usr/local
MANPREFIX = $(PREFIX)/share/man
SHAREDIR = $(PREFIX)/share/tl

CC = cc
CPPFLAGS = -D_POSIX_C_SOURCE=200809L -D_FILE_OFFSET_BITS=64 -DJSMN_PARENT_LINKS -DJSMN_STRICT \
	-DTL_VERSION=\"$(VERSION)\" -Ilib
CFLAGS = -std=c11 -O2 -g -Wall -Wextra -Werror -pthread
LDFLAGS = -pthread
LDLIBS = -lz -lcsv -lm
