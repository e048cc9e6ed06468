#!/bin/sh
# text2c.sh - a text file as a C string constant, for the files compiled
# into hpfpredict (interp/local.mk): the shipped SAG and the report page's
# template. Each line becomes a string literal; backslashes, quotes, '?'
# (trigraphs) and tabs are escaped.
# usage: text2c.sh NAME FILE > FILE.c   (defines const char NAME[])
name=$1 file=$2
echo "/* generated from $(basename "$file") by interp/text2c.sh */"
echo "extern const char $name[];"
echo "const char $name[] ="
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/	/\\t/g' \
    -e 's/^/    "/' -e 's/$/\\n"/' "$file" || exit 1
echo '    ;'
