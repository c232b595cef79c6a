// Reads lines "<pattern>\t<text>", each a string of UTF-16 units written as 4-digit hex, and prints 1 or 0
// per line: whether text.matches(pattern), as the upstream's `matches` operator evaluates it.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

public class JavaMatches {
  static String decode(String hex) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i + 4 <= hex.length(); i += 4) out.append((char) Integer.parseInt(hex.substring(i, i + 4), 16));
    return out.toString();
  }

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
    StringBuilder out = new StringBuilder();
    for (String line; (line = in.readLine()) != null; ) {
      int tab = line.indexOf('\t');
      out.append(decode(line.substring(tab + 1)).matches(decode(line.substring(0, tab))) ? '1' : '0').append('\n');
    }
    System.out.print(out);
  }
}
