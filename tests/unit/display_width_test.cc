// Display width of instance names for pmval's columns: ASCII as printf's
// "%*.*s", UTF-8 by the columns a terminal shows.
#include "display_width.h"

#include <string>

#include "absl/strings/str_format.h"
#include "gtest/gtest.h"

namespace pmtools {
namespace {

TEST(DisplayWidthTest, CountsColumnsNotBytes) {
  EXPECT_EQ(DisplayWidth(""), 0);
  EXPECT_EQ(DisplayWidth("eth0"), 4);
  EXPECT_EQ(DisplayWidth("caf\xc3\xa9"), 4);                 // café, 5 bytes
  EXPECT_EQ(DisplayWidth("\xe6\x97\xa5\xe6\x9c\xac"), 4);    // 日本: wide
  EXPECT_EQ(DisplayWidth("e\xcc\x81"), 1);                   // e + combining acute
  EXPECT_EQ(DisplayWidth("\xef\xbc\xa1"), 2);                // fullwidth A
  EXPECT_EQ(DisplayWidth("a\xffz"), 3);                      // an invalid byte is one column
}

TEST(DisplayWidthTest, AsciiPadsAndCutsAsPrintf) {
  for (const char* name : {"", "a", "cpu0", "1 minute", "a much longer instance name"}) {
    for (int width : {-6, -1, 0, 1, 4, 8, 12}) {
      EXPECT_EQ(PadDisplay(name, width), absl::StrFormat("%*.*s", width, width, name))
          << name << " " << width;
    }
  }
}

TEST(DisplayWidthTest, Utf8NamesLineUp) {
  EXPECT_EQ(PadDisplay("caf\xc3\xa9", 6), "  caf\xc3\xa9");
  EXPECT_EQ(DisplayWidth(PadDisplay("caf\xc3\xa9", 6)), 6);
  // Cut at the width, never inside a character.
  EXPECT_EQ(PadDisplay("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 4), "\xe6\x97\xa5\xe6\x9c\xac");
  // A wide character that does not fit leaves the column padded.
  EXPECT_EQ(PadDisplay("a\xe6\x97\xa5", 2), " a");
  // Combining marks stay with their base character.
  EXPECT_EQ(PadDisplay("e\xcc\x81x", 1), "e\xcc\x81");
}

}  // namespace
}  // namespace pmtools
