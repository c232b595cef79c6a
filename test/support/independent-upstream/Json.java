import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader and writer, as a service without Jackson on its class path would carry. Numbers are read
 * as Long when integral and within a long, BigInteger beyond, Double otherwise; Double is written with
 * Double.toString ("5.0", "1.0E7"), the way Jackson writes a java.lang.Double.
 */
final class Json {
  private final String text;
  private int at;

  private Json(String text) {
    this.text = text;
  }

  static Object parse(String text) {
    Json reader = new Json(text);
    reader.space();
    Object value = reader.value();
    reader.space();
    if (reader.at != text.length()) throw new IllegalArgumentException("Unexpected character at " + reader.at);
    return value;
  }

  private void space() {
    while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
  }

  private Object value() {
    if (at >= text.length()) throw new IllegalArgumentException("Unexpected end of JSON");
    char c = text.charAt(at);
    if (c == '{') return object();
    if (c == '[') return array();
    if (c == '"') return string();
    if (text.startsWith("true", at)) {
      at += 4;
      return Boolean.TRUE;
    }
    if (text.startsWith("false", at)) {
      at += 5;
      return Boolean.FALSE;
    }
    if (text.startsWith("null", at)) {
      at += 4;
      return null;
    }
    return number();
  }

  private Map<String, Object> object() {
    Map<String, Object> map = new LinkedHashMap<>();
    elements(
        '}',
        () -> {
          String key = string();
          space();
          if (text.charAt(at) != ':') throw new IllegalArgumentException("Expected : at " + at);
          at++;
          space();
          map.put(key, value());
        });
    return map;
  }

  private List<Object> array() {
    List<Object> list = new ArrayList<>();
    elements(']', () -> list.add(value()));
    return list;
  }

  /** From an opening bracket to its `close`: the comma-separated elements, each read by `element`. */
  private void elements(char close, Runnable element) {
    at++;
    space();
    if (text.charAt(at) == close) {
      at++;
      return;
    }
    while (true) {
      space();
      element.run();
      space();
      char c = text.charAt(at++);
      if (c == close) return;
      if (c != ',') throw new IllegalArgumentException("Expected , or " + close + " at " + (at - 1));
    }
  }

  private String string() {
    if (text.charAt(at) != '"') throw new IllegalArgumentException("Expected string at " + at);
    at++;
    StringBuilder out = new StringBuilder();
    while (true) {
      char c = text.charAt(at++);
      if (c == '"') return out.toString();
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char e = text.charAt(at++);
      switch (e) {
        case 'n' -> out.append('\n');
        case 't' -> out.append('\t');
        case 'r' -> out.append('\r');
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'u' -> {
          out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
          at += 4;
        }
        default -> out.append(e);
      }
    }
  }

  private Object number() {
    int start = at;
    while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) at++;
    String literal = text.substring(start, at);
    if (literal.isEmpty()) throw new IllegalArgumentException("Unexpected character at " + start);
    if (literal.contains(".") || literal.contains("e") || literal.contains("E")) return Double.parseDouble(literal);
    BigInteger big = new BigInteger(literal);
    if (big.bitLength() < 64) return big.longValue();
    return big;
  }

  static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(out, value);
    return out.toString();
  }

  @SuppressWarnings("unchecked")
  static void write(StringBuilder out, Object value) {
    if (value == null) out.append("null");
    else if (value instanceof String s) quote(out, s);
    else if (value instanceof Double d) {
      if (d.isNaN() || d.isInfinite()) out.append("null");
      else out.append(Double.toString(d));
    } else if (value instanceof Float f) out.append(Float.toString(f));
    else if (value instanceof Number || value instanceof Boolean) out.append(value.toString());
    else if (value instanceof Map<?, ?> map) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<String, Object> entry : ((Map<String, Object>) map).entrySet()) {
        if (!first) out.append(',');
        first = false;
        quote(out, entry.getKey());
        out.append(':');
        write(out, entry.getValue());
      }
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) out.append(',');
        write(out, list.get(i));
      }
      out.append(']');
    } else quote(out, value.toString());
  }

  static void quote(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
          else out.append(c);
        }
      }
    }
    out.append('"');
  }
}
