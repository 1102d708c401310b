# Writes the bytes of IN as a C array NAME (and NAME_len) into OUT: the
# pages are part of the binary, no file is read from the disk to serve them.
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
file(WRITE "${OUT}" "/* made from ${IN} by cmake/embed_bytes.cmake */\nconst unsigned char ${NAME}[] = {${body}0x00};\nconst unsigned long ${NAME}_len = sizeof ${NAME} - 1;\n")
