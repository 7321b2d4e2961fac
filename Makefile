# tl - find GPU performance bottlenecks in PyTorch profiler traces.
# See LICENSE file for copyright and license details.
.POSIX:
.SUFFIXES:

include config.mk

BIN = \
	bin/tl-parse

LIBOBJ = \
	lib/callstack.o \
	lib/category.o \
	lib/hashmap.o \
	lib/input.o \
	lib/intern.o \
	lib/interval.o \
	lib/json.o \
	lib/jsonscan.o \
	lib/jsonw.o \
	lib/kernclass.o \
	lib/ops_table.o \
	lib/rollup.o \
	lib/timeline.o \
	lib/trace.o \
	lib/tree.o \
	lib/tsv.o \
	lib/util.o

LIBHDR = $(LIBOBJ:.o=.h)

UNIT = \
	tests/unit/test_json \
	tests/unit/test_interval \
	tests/unit/test_tsv

MAN1 = \
	man/tl-parse.1
MAN5 = man/tl-format.5
MAN7 = man/tl.7

all: $(BIN)

lib/ops_table.c: share/tl/ops.tsv tests/tools/embed.awk
	awk -v name=tl_default_ops -f tests/tools/embed.awk share/tl/ops.tsv > $@

lib/ops_table.h:
	@:

lib/libtl.a: $(LIBOBJ)
	rm -f $@
	$(AR) rcs $@ $(LIBOBJ)

$(LIBOBJ): lib/util.h lib/trace.h lib/intern.h lib/hashmap.h config.mk

.SUFFIXES: .c .o
.c.o:
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

bin/tl-parse: cmd/tl-parse.c lib/libtl.a $(LIBHDR)
	@mkdir -p bin
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ cmd/tl-parse.c lib/libtl.a $(LDLIBS)

tests/unit/test_json: tests/unit/test_json.c tests/unit/unit.h lib/libtl.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ tests/unit/test_json.c lib/libtl.a $(LDLIBS)
tests/unit/test_interval: tests/unit/test_interval.c tests/unit/unit.h lib/libtl.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ tests/unit/test_interval.c lib/libtl.a $(LDLIBS)
tests/unit/test_tsv: tests/unit/test_tsv.c tests/unit/unit.h lib/libtl.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ tests/unit/test_tsv.c lib/libtl.a $(LDLIBS)

check: all $(UNIT)
	sh tests/run.sh

# Statically linked programs to copy into containers (see CONTRIBUTING.md
# for the LGPL terms of libcsv).
static:
	$(MAKE) clean
	$(MAKE) all LDFLAGS="$(LDFLAGS) -static"

# AddressSanitizer + UndefinedBehaviorSanitizer build of everything.
asan:
	$(MAKE) clean
	$(MAKE) all $(UNIT) CFLAGS="$(CFLAGS) -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" LDFLAGS="$(LDFLAGS) -fsanitize=address,undefined"

bench: all
	sh tests/bench.sh

install: all
	mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANPREFIX)/man1 \
	    $(DESTDIR)$(MANPREFIX)/man5 $(DESTDIR)$(MANPREFIX)/man7 \
	    $(DESTDIR)$(SHAREDIR)/samples
	cp -f $(BIN) $(DESTDIR)$(PREFIX)/bin/
	cp -f $(MAN1) $(DESTDIR)$(MANPREFIX)/man1/
	cp -f $(MAN5) $(DESTDIR)$(MANPREFIX)/man5/
	cp -f $(MAN7) $(DESTDIR)$(MANPREFIX)/man7/
	cp -f share/tl/ops.tsv $(DESTDIR)$(SHAREDIR)/
	cp -f share/tl/samples/* $(DESTDIR)$(SHAREDIR)/samples/

uninstall:
	for f in $(BIN); do rm -f $(DESTDIR)$(PREFIX)/bin/$${f#bin/}; done
	for f in $(MAN1) $(MAN5) $(MAN7); do \
	    s=$${f##*.}; rm -f $(DESTDIR)$(MANPREFIX)/man$$s/$${f#man/}; done
	rm -rf $(DESTDIR)$(SHAREDIR)

clean:
	rm -rf bin lib/*.o lib/libtl.a lib/ops_table.c $(UNIT)

.PHONY: all check static asan bench install uninstall clean
