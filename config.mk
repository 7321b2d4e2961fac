# tl version and install paths.
VERSION = 0.1.0
PREFIX = /usr/local
MANPREFIX = $(PREFIX)/share/man
SHAREDIR = $(PREFIX)/share/tl

CC = cc
# Inflate with ISA-L (Debian libisal-dev) when the compiler finds it, with
# zlib otherwise; make ISAL=0 builds with zlib only (make static does:
# Debian ships ISA-L as a shared library only).  make clean after
# switching.
ISAL != printf '\043include <isa-l/igzip_lib.h>\nint main(void) { return isal_inflate((void *)0); }\n' | $(CC) -x c -o /dev/null - -lisal > /dev/null 2>&1 && echo 1 || echo 0
ISAL_CPPFLAGS_1 = -DTL_ISAL
ISAL_LDLIBS_1 = -lisal
CPPFLAGS = -D_POSIX_C_SOURCE=200809L -D_FILE_OFFSET_BITS=64 -DJSMN_PARENT_LINKS -DJSMN_STRICT \
	-DTL_VERSION=\"$(VERSION)\" $(ISAL_CPPFLAGS_$(ISAL)) -Ilib
CFLAGS = -std=c11 -O2 -g -Wall -Wextra -Werror -pthread
LDFLAGS = -pthread
LDLIBS = $(ISAL_LDLIBS_$(ISAL)) -lz -lcsv -lm
