import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.text.SimpleDateFormat;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TimeZone;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * An object data service written from the owners' interface document alone, behaving like a Java 8 / Spring /
 * MongoDB service behind a load balancer wherever the document is silent. Every such behaviour is a named
 * quirk, switched on by --quirks=a,b,c or --quirks=all (minus --without=a,b), or the env UPSTREAM_QUIRKS.
 *
 * Prints "LISTENING <port>" once it accepts connections. Debug endpoints under /__debug/ serve the primary's
 * store (the truth), the write log, and expire tokens; they exist for tests only.
 */
public final class ObjectDataService {
  /** Every quirk: first those a 2014 Spring/MongoDB service is known for, then less common ones. */
  static final List<String> ALL_QUIRKS =
      List.of(
          // From the brief's list.
          "matches-find", // matches is Mongo $regex: find, not a whole-value match
          "matches-wrap", // matches is "^" + value + "$" with no group: a|b means ^a or b$ (wins over find)
          "criteria-hashmap", // criteria collected into a HashMap by field name: the last one on a field wins
          "regex-strings-only", // a regex never matches a number, boolean, date or reference (Mongo $regex)
          "extjson", // references served as {"$oid":…}, dates as {"$date":…}
          "save-replaces", // save with _id is MongoTemplate.save: replaces the document, upserts by _id alone
          "entity-class", // registered types bind to an entity: unknown fields dropped, decimals truncated to int
          "replica-lag", // reads from a secondary that lags writes by --lag-ms (400)
          "getobject-ignores-org", // getObject filters by applicationCode only
          "getobject-single", // getObject answers data: {…} (or null) instead of an array
          "totalcount-page", // totalCount counts after paging (the page's length)
          "pagestart-one-based", // pageStart is a 1-based page index; 0 is an error
          "expired-302", // an expired token answers 302 to the login page (wins over html)
          "expired-html", // an expired token answers 200 with the HTML login page
          "doubles", // numbers of untyped objects are stored as doubles: 5 is served as 5.0, 10000000 as 1.0E7
          "latin1-body", // answers encoded ISO-8859-1 (characters beyond it become '?')
          "update-strings", // update binds its fields as Map<String,String>: every value becomes a string
          // Of our own.
          "typed-compare-strings", // comparison operators get the criterion's raw string: Mongo type bracketing
          "unknown-op-as-matches", // an operator the service does not know falls to the default branch: matches
          "count-drops-dotted", // the count query is built from top-level criteria only
          "cache-no-tenant", // getAll answers cached 3 s keyed by objectName, filter and page, not tenant
          "xss-escape", // an anti-XSS filter HTML-escapes strings of save and update
          "trim-strings", // a StringTrimmerEditor trims strings of save and update
          "latin1-query", // Tomcat's default URIEncoding: query strings decoded as ISO-8859-1
          "audit-varchar", // after the write, an audit row with VARCHAR(255) fails on longer strings: HTTP 500
          "float-entity", // Order.amount is a Java float: 19.99 is stored as 19.989999771118164
          "local-dates", // Appointment dates served as "yyyy-MM-dd HH:mm:ss" in Asia/Kolkata, no zone
          "update-by-id-only", // update finds the object by _id alone, whatever the tenant
          "pagesize-cap", // pageSize silently capped at 50
          "natural-order-moves", // an updated document moves to the end of the natural order (MMAPv1 growth)
          "case-insensitive", // matches compiled with CASE_INSENSITIVE ($options: "i")
          "id-as-objectid", // a criterion on _id is ObjectId equality whatever the operator; bad hex is an error
          "dates-as-millis", // dates written as epoch milliseconds (Jackson's WRITE_DATES_AS_TIMESTAMPS)
          "serve-class", // documents served with Spring Data's _class field
          "form-login-cookie"); // the form login answers no token, only a JSESSIONID cookie

  static Set<String> quirks = new LinkedHashSet<>();
  static long lagMillis = 400;

  static boolean on(String quirk) {
    return quirks.contains(quirk);
  }

  // ---------------------------------------------------------------------------------------------- values

  /** A MongoDB ObjectId. */
  record Oid(String hex) {
    static final AtomicLong COUNTER = new AtomicLong(0x100000);

    static Oid next() {
      long seconds = System.currentTimeMillis() / 1000;
      return new Oid(String.format("%08x%016x", seconds, COUNTER.incrementAndGet()));
    }

    static boolean valid(String s) {
      return s != null && s.matches("[0-9a-fA-F]{24}");
    }

    @Override
    public String toString() {
      return hex;
    }
  }

  /** A stored document: the primary's copy. */
  static final class Doc {
    Oid id;
    String objectName;
    String app;
    String org;
    Map<String, Object> fields = new LinkedHashMap<>();
    String createdBy;
    long createdOn;
    long modifiedOn;
    int version;

    Doc copy() {
      Doc d = new Doc();
      d.id = id;
      d.objectName = objectName;
      d.app = app;
      d.org = org;
      d.fields = deepCopy(fields);
      d.createdBy = createdBy;
      d.createdOn = createdOn;
      d.modifiedOn = modifiedOn;
      d.version = version;
      return d;
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> deepCopy(Map<String, Object> map) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : map.entrySet()) out.put(e.getKey(), deepCopyValue(e.getValue()));
    return out;
  }

  @SuppressWarnings("unchecked")
  static Object deepCopyValue(Object v) {
    if (v instanceof Map<?, ?> m) return deepCopy((Map<String, Object>) m);
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>();
      for (Object o : l) out.add(deepCopyValue(o));
      return out;
    }
    return v;
  }

  // ---------------------------------------------------------------------------------------------- store

  /** One write to the primary: when, which document, and its state after (null when it does not exist). */
  record Version(long at, Doc state) {}

  static final Map<String, List<Version>> history = new LinkedHashMap<>();
  static final List<String> naturalOrder = new ArrayList<>();
  static final List<Map<String, Object>> writeLog = new ArrayList<>();

  static synchronized void put(Doc doc, boolean moveToEnd) {
    String key = doc.id.hex();
    List<Version> versions = history.computeIfAbsent(key, k -> new ArrayList<>());
    versions.add(new Version(System.currentTimeMillis(), doc.copy()));
    if (!naturalOrder.contains(key)) naturalOrder.add(key);
    else if (moveToEnd) {
      naturalOrder.remove(key);
      naturalOrder.add(key);
    }
  }

  /** The documents as a reader sees them at `at` (the primary: now; the secondary: now - lag), in natural order. */
  static synchronized List<Doc> snapshot(long at) {
    List<Doc> out = new ArrayList<>();
    for (String key : naturalOrder) {
      Doc state = null;
      for (Version v : history.get(key)) if (v.at() <= at) state = v.state();
      if (state != null) out.add(state.copy());
    }
    return out;
  }

  static List<Doc> readView() {
    long now = System.currentTimeMillis();
    return snapshot(on("replica-lag") ? now - lagMillis : now);
  }

  static Doc primary(String hex) {
    for (Doc d : snapshot(Long.MAX_VALUE)) if (d.id.hex().equalsIgnoreCase(hex)) return d;
    return null;
  }

  static synchronized void logWrite(String op, String id, String outcome, String detail) {
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("at", System.currentTimeMillis());
    entry.put("op", op);
    entry.put("id", id);
    entry.put("outcome", outcome);
    entry.put("detail", detail);
    writeLog.add(entry);
  }

  // ---------------------------------------------------------------------------------------------- users

  record User(String userId, String username, String mobile, String password, String app, String org) {}

  record Session(User user, long issuedAt, boolean[] expired) {}

  static final List<User> USERS =
      List.of(
          new User("u-1001", "alice", "9000000001", "alice-pw", "crm", "acme"),
          new User("u-1002", "bob", "9000000002", "bob-pw", "crm", "globex"),
          new User("u-2001", "carol", "9000000003", "carol-pw", "farm", "north"));

  static final Map<String, Session> sessions = new ConcurrentHashMap<>();
  static long tokenTtlMillis = 3_600_000;

  static User findUser(String name, String password) {
    if (name == null || password == null) return null;
    for (User u : USERS)
      if ((u.username().equals(name) || u.mobile().equals(name)) && u.password().equals(password)) return u;
    return null;
  }

  static String newToken(User user) {
    String token = java.util.UUID.randomUUID().toString().replace("-", "");
    sessions.put(token, new Session(user, System.currentTimeMillis(), new boolean[] {false}));
    return token;
  }

  // ---------------------------------------------------------------------------------------------- entities

  /** Registered types and their entity fields (name to Java type). Other objectNames are stored as maps. */
  static final Map<String, Map<String, String>> ENTITIES = new LinkedHashMap<>();

  static {
    ENTITIES.put(
        "com.acme.crm.LoanType",
        orderedMap("loanType", "String", "description", "String", "rate", "int", "maxAmount", "long"));
    ENTITIES.put(
        "com.acme.crm.Order",
        orderedMap(
            "orderNo", "long", "customer", "ObjectId", "amount", "float", "quantity", "int", "paid", "boolean",
            "placedAt", "Date", "note", "String", "shipping", "Map"));
    ENTITIES.put(
        "com.acme.crm.Appointment",
        orderedMap(
            "title", "String", "at", "Date", "confirmed", "boolean", "attendee", "ObjectId", "durationMinutes",
            "int"));
  }

  static Map<String, String> orderedMap(String... pairs) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) m.put(pairs[i], pairs[i + 1]);
    return m;
  }

  static final class BadRequest extends RuntimeException {
    BadRequest(String message) {
      super(message);
    }
  }

  /** Converts one incoming field value the way the write path stores it (entity binding or map storage). */
  @SuppressWarnings("unchecked")
  static Object storeValue(String objectName, String field, Object value) {
    Map<String, String> entity = on("entity-class") ? ENTITIES.get(objectName) : null;
    if (entity == null) return untyped(value);
    String type = entity.get(field);
    if (value == null) return null;
    switch (type) {
      case "String":
        return cleanString(value instanceof String s ? s : String.valueOf(value));
      case "int":
        if (value instanceof Number n) return (long) n.intValue();
        if (value instanceof String s) {
          try {
            return (long) Integer.parseInt(s.trim());
          } catch (NumberFormatException e) {
            throw new BadRequest("Can not deserialize value of type int from String \"" + s + "\"");
          }
        }
        throw new BadRequest("Can not deserialize value of type int for field " + field);
      case "long":
        if (value instanceof Number n) return n.longValue();
        if (value instanceof String s) {
          try {
            return Long.parseLong(s.trim());
          } catch (NumberFormatException e) {
            throw new BadRequest("Can not deserialize value of type long from String \"" + s + "\"");
          }
        }
        throw new BadRequest("Can not deserialize value of type long for field " + field);
      case "float":
        {
          double d;
          if (value instanceof Number n) d = n.doubleValue();
          else if (value instanceof String s) {
            try {
              d = Double.parseDouble(s.trim());
            } catch (NumberFormatException e) {
              throw new BadRequest("Can not deserialize value of type float from String \"" + s + "\"");
            }
          } else throw new BadRequest("Can not deserialize value of type float for field " + field);
          // Mongo keeps the float widened to a double: the float's error shows in every read.
          return on("float-entity") ? (double) (float) d : d;
        }
      case "boolean":
        if (value instanceof Boolean b) return b;
        if ("true".equals(value) || "false".equals(value)) return Boolean.valueOf((String) value);
        throw new BadRequest("Can not deserialize value of type boolean from " + value);
      case "Date":
        return toDate(value);
      case "ObjectId":
        {
          if (value instanceof Oid o) return o;
          Object raw = value instanceof Map<?, ?> m && m.containsKey("$oid") ? m.get("$oid") : value;
          if (raw instanceof String s && Oid.valid(s)) return new Oid(s.toLowerCase());
          throw new BadRequest("invalid hexadecimal representation of an ObjectId: [" + raw + "]");
        }
      default:
        return untyped(value);
    }
  }

  static Date toDate(Object value) {
    if (value instanceof Date d) return d;
    if (value instanceof Number n) return new Date(n.longValue());
    if (value instanceof Map<?, ?> m && m.containsKey("$date")) return toDate(m.get("$date"));
    if (value instanceof String s) {
      try {
        return Date.from(Instant.parse(s));
      } catch (Exception e) {
        try {
          SimpleDateFormat f = new SimpleDateFormat("yyyy-MM-dd");
          f.setTimeZone(TimeZone.getTimeZone("UTC"));
          f.setLenient(false);
          return f.parse(s);
        } catch (Exception e2) {
          throw new BadRequest("Can not deserialize value of type java.util.Date from String \"" + s + "\"");
        }
      }
    }
    throw new BadRequest("Can not deserialize value of type java.util.Date from " + value);
  }

  /** Map storage: the legacy driver's JSON.parse turns {"$oid"} and {"$date"} into their types. */
  static Object untyped(Object value) {
    if (value instanceof Oid || value instanceof Date) return value;
    if (value instanceof String s) return cleanString(s);
    if (value instanceof Number n && on("doubles")) return n.doubleValue();
    if (value instanceof Map<?, ?> m) {
      if (m.size() == 1 && m.get("$oid") instanceof String s && Oid.valid(s)) return new Oid(s.toLowerCase());
      if (m.size() == 1 && m.containsKey("$date")) return toDate(m.get("$date"));
    }
    return eachInside(value, ObjectDataService::untyped);
  }

  /** A copy of a map or list with each value or item through `each`, in order; any other value as it is. */
  @SuppressWarnings("unchecked")
  static Object eachInside(Object value, UnaryOperator<Object> each) {
    if (value instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (Map.Entry<String, Object> e : ((Map<String, Object>) m).entrySet()) out.put(e.getKey(), each.apply(e.getValue()));
      return out;
    }
    if (value instanceof List<?> l) {
      List<Object> out = new ArrayList<>();
      for (Object o : l) out.add(each.apply(o));
      return out;
    }
    return value;
  }

  static String cleanString(String s) {
    String out = s;
    if (on("trim-strings")) out = out.trim();
    if (on("xss-escape"))
      out =
          out.replace("&", "&amp;")
              .replace("<", "&lt;")
              .replace(">", "&gt;")
              .replace("\"", "&quot;")
              .replace("'", "&#39;");
    return out;
  }

  static Map<String, Object> bindFields(String objectName, Map<String, Object> data) {
    Map<String, String> entity = on("entity-class") ? ENTITIES.get(objectName) : null;
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : data.entrySet()) {
      String name = e.getKey();
      if (name.equals("_id")) continue;
      // Jackson's FAIL_ON_UNKNOWN_PROPERTIES turned off, as every 2014 project did.
      if (entity != null && !entity.containsKey(name)) continue;
      out.put(name, storeValue(objectName, name, e.getValue()));
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------- serving

  static final TimeZone KOLKATA = TimeZone.getTimeZone("Asia/Kolkata");

  static Map<String, Object> serve(Doc doc) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("_id", serveValue(doc.objectName, doc.id));
    if (on("serve-class")) out.put("_class", doc.objectName);
    for (Map.Entry<String, Object> e : doc.fields.entrySet())
      out.put(e.getKey(), serveValue(doc.objectName, e.getValue()));
    out.put("applicationCode", doc.app);
    out.put("organizationCode", doc.org);
    return out;
  }

  static Object serveValue(String objectName, Object v) {
    if (v instanceof Oid o) return on("extjson") ? Map.of("$oid", o.hex()) : o.hex();
    if (v instanceof Date d) {
      if (on("local-dates") && "com.acme.crm.Appointment".equals(objectName)) {
        SimpleDateFormat f = new SimpleDateFormat("yyyy-MM-dd HH:mm:ss");
        f.setTimeZone(KOLKATA);
        return f.format(d);
      }
      Object plain = on("dates-as-millis") ? (Object) d.getTime() : Instant.ofEpochMilli(d.getTime()).toString();
      return on("extjson") ? Map.of("$date", plain) : plain;
    }
    return eachInside(v, inner -> serveValue(objectName, inner));
  }

  /** The truth for tests: every type tagged, longs beyond 2^53 as strings, dates as ISO. */
  static Object truthValue(Object v) {
    if (v instanceof Oid o) return Map.of("$oid", o.hex());
    if (v instanceof Date d) return Map.of("$date", Instant.ofEpochMilli(d.getTime()).toString());
    if (v instanceof Long l && Math.abs(l) > (1L << 53)) return Map.of("$numberLong", l.toString());
    if (v instanceof Double d) return Map.of("$double", d);
    return eachInside(v, ObjectDataService::truthValue);
  }

  // ---------------------------------------------------------------------------------------------- filters

  record Criterion(String field, String operator, String value) {}

  static final Set<String> OPERATORS =
      Set.of("matches", "is", "eq", "equals", "ne", "gt", "gte", "lt", "lte", "in", "exists");

  @SuppressWarnings("unchecked")
  static List<Criterion> criteria(String filterCommand) {
    if (filterCommand == null || filterCommand.isBlank()) return List.of();
    Object parsed;
    try {
      parsed = Json.parse(filterCommand);
    } catch (RuntimeException e) {
      throw new BadRequest("Invalid filterCommand: " + e.getMessage());
    }
    if (!(parsed instanceof Map<?, ?> map)) throw new BadRequest("Invalid filterCommand");
    Object list = map.get("criteria");
    if (list == null) return List.of();
    if (!(list instanceof List<?> l)) throw new BadRequest("Invalid filterCommand: criteria");
    List<Criterion> out = new ArrayList<>();
    Map<String, Criterion> byField = new HashMap<>();
    for (Object o : l) {
      if (!(o instanceof Map<?, ?> c)) throw new BadRequest("Invalid criterion");
      Object f = c.get("fieldName");
      Object op = c.get("operator");
      Object v = c.get("value");
      if (!(f instanceof String) || !(op instanceof String))
        throw new BadRequest("Invalid criterion: fieldName and operator are required");
      Criterion criterion = new Criterion((String) f, (String) op, v == null ? null : String.valueOf(v));
      if (!OPERATORS.contains(criterion.operator()) && !on("unknown-op-as-matches"))
        throw new BadRequest("Unsupported operator: " + criterion.operator());
      if (on("criteria-hashmap")) byField.put(criterion.field(), criterion);
      else out.add(criterion);
    }
    if (on("criteria-hashmap")) out.addAll(byField.values());
    return out;
  }

  @SuppressWarnings("unchecked")
  static List<Object> valuesAt(Doc doc, String path) {
    List<Object> out = new ArrayList<>();
    if (path.equals("_id")) {
      out.add(doc.id);
      return out;
    }
    if (path.equals("applicationCode")) {
      out.add(doc.app);
      return out;
    }
    if (path.equals("organizationCode")) {
      out.add(doc.org);
      return out;
    }
    collect(doc.fields, Arrays.asList(path.split("\\.")), out);
    return out;
  }

  @SuppressWarnings("unchecked")
  static void collect(Object current, List<String> rest, List<Object> out) {
    if (rest.isEmpty()) {
      // Mongo matches an array field when any element matches.
      if (current instanceof List<?> l) out.addAll(l);
      else out.add(current);
      return;
    }
    if (current instanceof Map<?, ?> m) {
      if (!((Map<String, Object>) m).containsKey(rest.get(0))) return;
      collect(((Map<String, Object>) m).get(rest.get(0)), rest.subList(1, rest.size()), out);
    } else if (current instanceof List<?> l) for (Object o : l) collect(o, rest, out);
  }

  static boolean matchesAll(Doc doc, List<Criterion> criteria) {
    for (Criterion c : criteria) if (!matches(doc, c)) return false;
    return true;
  }

  static boolean matches(Doc doc, Criterion c) {
    String op = OPERATORS.contains(c.operator()) ? c.operator() : "matches";
    if (c.field().equals("_id") && on("id-as-objectid")) {
      if (!Oid.valid(c.value()))
        throw new BadRequest("invalid hexadecimal representation of an ObjectId: [" + c.value() + "]");
      return doc.id.hex().equalsIgnoreCase(c.value());
    }
    List<Object> values = valuesAt(doc, c.field());
    if (op.equals("exists")) return values.isEmpty() != "true".equals(c.value());
    if (op.equals("ne")) {
      for (Object v : values) if (compare(v, "is", c.value())) return false;
      return true;
    }
    for (Object v : values) if (compare(v, op, c.value())) return true;
    return false;
  }

  static boolean compare(Object stored, String op, String value) {
    if (value == null) return op.equals("is") || op.equals("eq") || op.equals("equals") ? stored == null : false;
    if (op.equals("matches")) return regex(stored, value);
    if (op.equals("in")) {
      for (String part : value.split(",")) if (compare(stored, "is", part.trim())) return true;
      return false;
    }
    if (stored == null) return false;
    int cmp;
    if (stored instanceof String s) cmp = s.compareTo(value);
    else if (on("typed-compare-strings")) return false; // Mongo type bracketing: a string never equals a number
    else if (stored instanceof Number n) {
      try {
        cmp = Double.compare(n.doubleValue(), Double.parseDouble(value));
      } catch (NumberFormatException e) {
        return false;
      }
    } else if (stored instanceof Boolean b) {
      if (!value.equals("true") && !value.equals("false")) return false;
      cmp = Boolean.compare(b, Boolean.parseBoolean(value));
    } else if (stored instanceof Date d) {
      try {
        cmp = Long.compare(d.getTime(), toDate(value).getTime());
      } catch (BadRequest e) {
        return false;
      }
    } else if (stored instanceof Oid o) cmp = o.hex().compareToIgnoreCase(value);
    else return false;
    return switch (op) {
      case "gt" -> cmp > 0;
      case "gte" -> cmp >= 0;
      case "lt" -> cmp < 0;
      case "lte" -> cmp <= 0;
      default -> cmp == 0;
    };
  }

  static boolean regex(Object stored, String value) {
    String text;
    if (stored instanceof String s) text = s;
    else if (stored == null || on("regex-strings-only")) return false;
    else if (stored instanceof Map<?, ?> || stored instanceof List<?>) return false;
    else text = String.valueOf(stored); // Date.toString, Double.toString, ObjectId hex
    int flags = on("case-insensitive") ? Pattern.CASE_INSENSITIVE : 0;
    try {
      if (on("matches-wrap")) return Pattern.compile("^" + value + "$", flags).matcher(text).find();
      Matcher m = Pattern.compile(value, flags).matcher(text);
      return on("matches-find") ? m.find() : m.matches();
    } catch (PatternSyntaxException e) {
      throw new BadRequest("Invalid regular expression: " + e.getDescription());
    }
  }

  // ---------------------------------------------------------------------------------------------- http

  static Charset queryCharset() {
    return on("latin1-query") ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8;
  }

  static Map<String, String> parseParams(String raw, Charset charset) {
    Map<String, String> out = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) return out;
    for (String pair : raw.split("&")) {
      if (pair.isEmpty()) continue;
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      try {
        out.putIfAbsent(URLDecoder.decode(k, charset), URLDecoder.decode(v, charset));
      } catch (IllegalArgumentException e) {
        throw new BadRequest("Malformed query string");
      }
    }
    return out;
  }

  static final Pattern CALLBACK = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$.]*");

  static void send(HttpExchange ex, int status, String contentType, String body, Charset charset) throws IOException {
    byte[] bytes = body.getBytes(charset);
    ex.getResponseHeaders().set("Content-Type", contentType + ";charset=" + charset.name());
    ex.getResponseHeaders().set("Server", "Apache-Coyote/1.1");
    ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  static Charset bodyCharset() {
    return on("latin1-body") ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8;
  }

  static void jsonp(HttpExchange ex, String callback, Map<String, Object> body) throws IOException {
    jsonpText(ex, callback, Json.write(body));
  }

  static void jsonpText(HttpExchange ex, String callback, String json) throws IOException {
    send(ex, 200, "application/javascript", callback + "(" + json + ");", bodyCharset());
  }

  static Map<String, Object> error(String message) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("status", "error");
    m.put("message", message);
    return m;
  }

  static final String LOGIN_PAGE =
      "<!DOCTYPE html><html><head><title>Login</title></head><body><form method=\"post\""
          + " action=\"/app/login.jsp\"><input name=\"username\"><input type=\"password\" name=\"password\">"
          + "<button>Sign in</button></form></body></html>";

  static final String TOMCAT_500 =
      "<html><head><title>Apache Tomcat/7.0.52 - Error report</title></head><body><h1>HTTP Status 500 - Request"
          + " processing failed; nested exception is org.springframework.jdbc.UncategorizedSQLException:"
          + " Data truncation: Data too long for column 'detail' at row 1</h1></body></html>";

  /** The session of a JSONP call, or null after answering the failure. */
  static Session authenticate(HttpExchange ex, String callback, String token, String username, String app)
      throws IOException {
    Session s = token == null ? null : sessions.get(token);
    if (s != null && (s.expired()[0] || System.currentTimeMillis() - s.issuedAt() > tokenTtlMillis)) {
      if (on("expired-302")) {
        ex.getResponseHeaders().set("Location", "/app/login.jsp?expired=true");
        send(ex, 302, "text/html", "", StandardCharsets.ISO_8859_1);
      } else if (on("expired-html")) send(ex, 200, "text/html", LOGIN_PAGE, StandardCharsets.ISO_8859_1);
      else jsonp(ex, callback, error("Session expired, please login again"));
      return null;
    }
    if (s == null) {
      jsonp(ex, callback, error("Invalid apiToken"));
      return null;
    }
    if (username != null && !username.equals(s.user().username()) && !username.equals(s.user().mobile())) {
      jsonp(ex, callback, error("Token does not belong to user " + username));
      return null;
    }
    if (app == null || !app.equals(s.user().app())) {
      jsonp(ex, callback, error("Access denied for application " + app));
      return null;
    }
    return s;
  }

  static void handle(HttpExchange ex) throws IOException {
    try {
      String path = ex.getRequestURI().getPath();
      String method = ex.getRequestMethod();
      if (path.startsWith("/__debug/")) debug(ex, path);
      else if (path.equals("/v1/user/login") && method.equals("POST")) jsonLogin(ex);
      else if (path.equals("/app/login.jsp") && method.equals("POST")) formLogin(ex);
      else if (path.equals("/app/login.jsp")) send(ex, 200, "text/html", LOGIN_PAGE, StandardCharsets.ISO_8859_1);
      else if (path.startsWith("/studio/jsonp/metadata/get/")) metadata(ex, path);
      else if (path.equals("/studio/jsonp/getObject/") || path.equals("/studio/jsonp/getObject")) read(ex, true);
      else if (path.equals("/studio/jsonp/getAll") || path.equals("/studio/jsonp/getAll/")) read(ex, false);
      else if ((path.equals("/studio/jsonp/save") || path.equals("/studio/jsonp/save/")) && method.equals("POST"))
        save(ex);
      else if (path.startsWith("/studio/jsonp/update/")) update(ex, path);
      else send(ex, 404, "text/html", "<html><body><h1>HTTP Status 404 - " + path + "</h1></body></html>",
          StandardCharsets.ISO_8859_1);
    } catch (Exception e) {
      e.printStackTrace();
      try {
        send(ex, 500, "text/html", "<html><body><h1>HTTP Status 500 - " + e + "</h1></body></html>",
            StandardCharsets.ISO_8859_1);
      } catch (Exception ignored) {
        // The answer was already under way.
      }
    } finally {
      ex.close();
    }
  }

  static String body(HttpExchange ex) throws IOException {
    return new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
  }

  static void jsonLogin(HttpExchange ex) throws IOException {
    String text = body(ex);
    Map<String, Object> answer;
    Object parsed;
    try {
      parsed = Json.parse(text);
    } catch (RuntimeException e) {
      parsed = null;
    }
    if (!(parsed instanceof Map<?, ?> m)) answer = error("Invalid request body");
    else {
      User u = findUser(str(m.get("username")), str(m.get("password")));
      if (u == null) answer = error("Invalid username or password");
      else {
        answer = new LinkedHashMap<>();
        answer.put("status", "success");
        answer.put("token", newToken(u));
      }
    }
    send(ex, 200, "application/json", Json.write(answer), StandardCharsets.UTF_8);
  }

  static String str(Object o) {
    return o instanceof String s ? s : null;
  }

  static void formLogin(HttpExchange ex) throws IOException {
    Map<String, String> form = parseParams(body(ex), StandardCharsets.UTF_8);
    User u = findUser(form.get("username"), form.get("password"));
    Map<String, Object> answer;
    if (u == null) answer = error("Invalid mobile number/username or password");
    else {
      String token = newToken(u);
      answer = new LinkedHashMap<>();
      answer.put("status", "success");
      answer.put("userId", u.userId());
      answer.put("username", form.get("username"));
      if (on("form-login-cookie"))
        ex.getResponseHeaders().add("Set-Cookie", "JSESSIONID=" + token + "; Path=/; HttpOnly");
      else answer.put("token", token);
      answer.put("message", "Login successful");
    }
    send(ex, 200, "application/json", Json.write(answer), StandardCharsets.UTF_8);
  }

  static String callbackOf(HttpExchange ex, Map<String, String> q) throws IOException {
    String cb = q.get("callback");
    if (cb == null || !CALLBACK.matcher(cb).matches()) {
      send(ex, 400, "text/html", "<html><body><h1>HTTP Status 400 - Invalid callback</h1></body></html>",
          StandardCharsets.ISO_8859_1);
      return null;
    }
    return cb;
  }

  /** Refuses a named organization other than the session's, answering here: true then. */
  static boolean deniedOrganization(HttpExchange ex, String cb, String org, Session s) throws IOException {
    if (org == null || org.isEmpty() || org.equals(s.user().org())) return false;
    jsonp(ex, cb, error("Access denied for organization " + org));
    return true;
  }

  static final class Cached {
    final long at;
    final String json;

    Cached(long at, String json) {
      this.at = at;
      this.json = json;
    }
  }

  static final Map<String, Cached> readCache = new ConcurrentHashMap<>();

  static void read(HttpExchange ex, boolean single) throws IOException {
    Map<String, String> q = parseParams(ex.getRequestURI().getRawQuery(), queryCharset());
    String cb = callbackOf(ex, q);
    if (cb == null) return;
    String objectName = q.get("objectName");
    Session s = authenticate(ex, cb, q.get("apiToken"), q.get("username"), q.get("applicationCode"));
    if (s == null) return;
    if (objectName == null || !objectName.matches("[a-z][a-z0-9]*(\\.[a-z][a-z0-9]*)*\\.[A-Z][A-Za-z0-9]*")) {
      jsonp(ex, cb, error("Invalid objectName: " + objectName));
      return;
    }
    String org = q.get("organizationCode");
    if (deniedOrganization(ex, cb, org, s)) return;
    String cacheKey =
        objectName + "|" + q.get("filterCommand") + "|" + q.get("pageSize") + "|" + q.get("pageStart") + "|" + single;
    if (!single && on("cache-no-tenant")) {
      Cached hit = readCache.get(cacheKey);
      if (hit != null && System.currentTimeMillis() - hit.at < 3000) {
        jsonpText(ex, cb, hit.json);
        return;
      }
    }
    List<Criterion> criteria;
    List<Doc> matched = new ArrayList<>();
    List<Doc> countMatched = new ArrayList<>();
    try {
      criteria = criteria(q.get("filterCommand"));
      List<Criterion> countCriteria = new ArrayList<>();
      for (Criterion c : criteria)
        if (!on("count-drops-dotted") || !c.field().contains(".")) countCriteria.add(c);
      boolean useOrg = !(single && on("getobject-ignores-org")) && org != null && !org.isEmpty();
      for (Doc d : readView()) {
        if (!d.objectName.equals(objectName) || !d.app.equals(s.user().app())) continue;
        if (useOrg && !d.org.equals(org)) continue;
        if (matchesAll(d, criteria)) matched.add(d);
        if (matchesAll(d, countCriteria)) countMatched.add(d);
      }
    } catch (BadRequest e) {
      jsonp(ex, cb, error(e.getMessage()));
      return;
    }
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("status", "success");
    if (single) {
      if (on("getobject-single")) answer.put("data", matched.isEmpty() ? null : serve(matched.get(0)));
      else answer.put("data", matched.isEmpty() ? List.of() : List.of(serve(matched.get(0))));
      answer.put("totalCount", matched.isEmpty() ? 0 : 1);
      jsonp(ex, cb, answer);
      return;
    }
    int size;
    int start;
    try {
      size = q.get("pageSize") == null ? 20 : Integer.parseInt(q.get("pageSize"));
      start = q.get("pageStart") == null ? (on("pagestart-one-based") ? 1 : 0) : Integer.parseInt(q.get("pageStart"));
    } catch (NumberFormatException e) {
      jsonp(ex, cb, error("Failed to convert value of type 'java.lang.String' to required type 'int'"));
      return;
    }
    int page = on("pagestart-one-based") ? start - 1 : start;
    if (page < 0) {
      jsonp(ex, cb, error("Page index must not be less than zero!"));
      return;
    }
    if (size < 1) {
      jsonp(ex, cb, error("Page size must not be less than one!"));
      return;
    }
    if (on("pagesize-cap")) size = Math.min(size, 50);
    List<Object> data = new ArrayList<>();
    for (int i = page * size; i < Math.min(matched.size(), page * size + size); i++) data.add(serve(matched.get(i)));
    answer.put("data", data);
    answer.put("totalCount", on("totalcount-page") ? data.size() : countMatched.size());
    String json = Json.write(answer);
    if (on("cache-no-tenant")) readCache.put(cacheKey, new Cached(System.currentTimeMillis(), json));
    jsonpText(ex, cb, json);
  }

  static void metadata(HttpExchange ex, String path) throws IOException {
    Map<String, String> q = parseParams(ex.getRequestURI().getRawQuery(), queryCharset());
    String cb = callbackOf(ex, q);
    if (cb == null) return;
    Session s = authenticate(ex, cb, q.get("apiToken"), q.get("username"), q.get("applicationCode"));
    if (s == null) return;
    String id = path.substring("/studio/jsonp/metadata/get/".length()).replace("/", "");
    String category = q.get("category");
    if (category != null && !category.equals("none")) {
      jsonp(ex, cb, error("Unknown metadata category: " + category));
      return;
    }
    Doc found = null;
    for (Doc d : readView()) if (d.id.hex().equalsIgnoreCase(id) && d.app.equals(s.user().app())) found = d;
    if (found == null) {
      jsonp(ex, cb, error("No object found with id " + id));
      return;
    }
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("objectId", found.id.hex());
    data.put("objectName", found.objectName);
    data.put("applicationCode", found.app);
    data.put("organizationCode", found.org);
    data.put("createdBy", found.createdBy);
    data.put("createdOn", serveValue("", new Date(found.createdOn)));
    data.put("modifiedOn", serveValue("", new Date(found.modifiedOn)));
    data.put("version", found.version);
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("status", "success");
    answer.put("data", data);
    jsonp(ex, cb, answer);
  }

  static Map<String, Object> saveError(String message, String code) {
    Map<String, Object> m = error(message);
    m.put("error_code", code);
    return m;
  }

  /** After a write: the audit row, whose VARCHAR(255) column fails on longer strings (the write stays). */
  static boolean auditFails(Map<String, Object> fields) {
    if (!on("audit-varchar")) return false;
    for (Object v : fields.values()) if (v instanceof String s && s.length() > 255) return true;
    return false;
  }

  @SuppressWarnings("unchecked")
  static void save(HttpExchange ex) throws IOException {
    Map<String, String> q = parseParams(ex.getRequestURI().getRawQuery(), queryCharset());
    String raw = body(ex);
    Map<String, Object> body;
    try {
      String trimmed = raw.trim();
      if (trimmed.startsWith("{")) body = (Map<String, Object>) Json.parse(trimmed);
      else {
        body = new LinkedHashMap<>(parseParams(raw, StandardCharsets.UTF_8));
        if (body.get("data") instanceof String d) body.put("data", Json.parse(d));
      }
    } catch (RuntimeException e) {
      String cb = q.get("callback") == null ? "callback" : q.get("callback");
      jsonp(ex, cb, saveError("Invalid request body", "SAVE_ERR_401"));
      return;
    }
    String cb = q.get("callback") != null ? q.get("callback") : str(body.get("callback"));
    if (cb == null || !CALLBACK.matcher(cb).matches()) {
      send(ex, 400, "text/html", "<html><body><h1>HTTP Status 400 - Invalid callback</h1></body></html>",
          StandardCharsets.ISO_8859_1);
      return;
    }
    String token = str(body.get("apiToken"));
    Session s = token == null ? null : sessions.get(token);
    if (s != null && (s.expired()[0] || System.currentTimeMillis() - s.issuedAt() > tokenTtlMillis)) {
      authenticate(ex, cb, token, null, str(body.get("applicationCode")));
      return;
    }
    String objectName = str(body.get("objectName"));
    String app = str(body.get("applicationCode"));
    String org = str(body.get("organizationCode"));
    if (s == null || objectName == null || app == null || org == null || !(body.get("data") instanceof Map<?, ?>)) {
      jsonp(ex, cb, saveError(s == null ? "Invalid apiToken" : "Missing required fields", "SAVE_ERR_401"));
      return;
    }
    if (!app.equals(s.user().app()) || !org.equals(s.user().org())) {
      jsonp(ex, cb, saveError("Access denied", "SAVE_ERR_401"));
      return;
    }
    Map<String, Object> data = (Map<String, Object>) body.get("data");
    Object rawId = data.get("_id");
    if (rawId instanceof Map<?, ?> m && m.containsKey("$oid")) rawId = m.get("$oid");
    Map<String, Object> fields;
    try {
      fields = bindFields(objectName, data);
    } catch (BadRequest e) {
      jsonp(ex, cb, saveError(e.getMessage(), "SAVE_ERR_400"));
      return;
    }
    long now = System.currentTimeMillis();
    Doc doc;
    synchronized (ObjectDataService.class) {
      if (rawId == null || "".equals(rawId)) {
        doc = new Doc();
        doc.id = Oid.next();
        doc.objectName = objectName;
        doc.app = app;
        doc.org = org;
        doc.fields = fields;
        doc.createdBy = s.user().username();
        doc.createdOn = now;
        doc.modifiedOn = now;
        doc.version = 0;
        put(doc, false);
        logWrite("save-create", doc.id.hex(), "written", objectName);
      } else {
        String hex = String.valueOf(rawId);
        if (!Oid.valid(hex)) {
          jsonp(ex, cb, saveError("invalid hexadecimal representation of an ObjectId: [" + hex + "]", "SAVE_ERR_400"));
          return;
        }
        Doc existing = primary(hex);
        boolean ours =
            existing != null && existing.app.equals(app) && existing.org.equals(org)
                && existing.objectName.equals(objectName);
        if (on("save-replaces")) {
          // MongoTemplate.save: by _id alone, the whole document, an upsert.
          doc = new Doc();
          doc.id = new Oid(hex.toLowerCase());
          doc.objectName = objectName;
          doc.app = app;
          doc.org = org;
          doc.fields = fields;
          doc.createdBy = existing == null ? s.user().username() : existing.createdBy;
          doc.createdOn = existing == null ? now : existing.createdOn;
          doc.modifiedOn = now;
          doc.version = existing == null ? 0 : existing.version + 1;
        } else {
          if (!ours) {
            jsonp(ex, cb, saveError("Object not found: " + hex, "SAVE_ERR_404"));
            return;
          }
          doc = existing;
          doc.fields.putAll(fields);
          doc.modifiedOn = now;
          doc.version++;
        }
        put(doc, on("natural-order-moves"));
        logWrite("save-update", doc.id.hex(), "written", objectName + (ours ? "" : " (not the caller's before)"));
      }
    }
    if (auditFails(doc.fields)) {
      logWrite("audit", doc.id.hex(), "failed-after-write", "HTTP 500");
      send(ex, 500, "text/html", TOMCAT_500, StandardCharsets.ISO_8859_1);
      return;
    }
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("status", "success");
    answer.put("message", "Object saved successfully");
    answer.put("savedObjectId", doc.id.hex());
    jsonp(ex, cb, answer);
  }

  static final Set<String> UPDATE_RESERVED =
      Set.of("callback", "apiToken", "applicationCode", "organizationCode", "username", "objectName", "data", "_");

  @SuppressWarnings("unchecked")
  static void update(HttpExchange ex, String path) throws IOException {
    Map<String, String> q = parseParams(ex.getRequestURI().getRawQuery(), queryCharset());
    String cb = callbackOf(ex, q);
    if (cb == null) return;
    Session s = authenticate(ex, cb, q.get("apiToken"), q.get("username"), q.get("applicationCode"));
    if (s == null) return;
    String id = path.substring("/studio/jsonp/update/".length()).replace("/", "");
    if (!Oid.valid(id)) {
      jsonp(ex, cb, error("Invalid object id: " + id));
      return;
    }
    String org = q.get("organizationCode");
    if (deniedOrganization(ex, cb, org, s)) return;
    Map<String, Object> given = new LinkedHashMap<>();
    if (q.get("data") != null) {
      try {
        Object parsed = Json.parse(q.get("data"));
        if (!(parsed instanceof Map<?, ?>)) throw new IllegalArgumentException("data is not an object");
        given.putAll((Map<String, Object>) parsed);
      } catch (RuntimeException e) {
        jsonp(ex, cb, error("Invalid data: " + e.getMessage()));
        return;
      }
    }
    for (Map.Entry<String, String> e : q.entrySet())
      if (!UPDATE_RESERVED.contains(e.getKey())) given.put(e.getKey(), e.getValue());
    given.remove("_id");
    if (given.isEmpty()) {
      jsonp(ex, cb, error("No fields to update"));
      return;
    }
    if (on("update-strings"))
      for (Map.Entry<String, Object> e : given.entrySet())
        if (e.getValue() != null && !(e.getValue() instanceof String))
          e.setValue(e.getValue() instanceof Map<?, ?> || e.getValue() instanceof List<?> ? Json.write(e.getValue())
              : String.valueOf(e.getValue()));
    Doc doc;
    Map<String, Object> changed;
    synchronized (ObjectDataService.class) {
      doc = primary(id);
      boolean ours = doc != null && doc.app.equals(s.user().app()) && doc.org.equals(s.user().org());
      String objectName = q.get("objectName");
      if (doc == null || (!ours && !on("update-by-id-only"))
          || (objectName != null && !objectName.equals(doc.objectName))) {
        jsonp(ex, cb, error("Object not found: " + id));
        return;
      }
      try {
        changed = bindFields(doc.objectName, given);
      } catch (BadRequest e) {
        jsonp(ex, cb, error(e.getMessage()));
        return;
      }
      if (changed.isEmpty()) {
        jsonp(ex, cb, error("No fields to update"));
        return;
      }
      for (Map.Entry<String, Object> e : changed.entrySet()) setPath(doc.fields, e.getKey(), e.getValue());
      doc.modifiedOn = System.currentTimeMillis();
      doc.version++;
      put(doc, on("natural-order-moves"));
      logWrite("update", doc.id.hex(), "written", doc.objectName + (ours ? "" : " (another tenant's)"));
    }
    if (auditFails(changed)) {
      logWrite("audit", doc.id.hex(), "failed-after-write", "HTTP 500");
      send(ex, 500, "text/html", TOMCAT_500, StandardCharsets.ISO_8859_1);
      return;
    }
    Map<String, Object> updated = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : changed.entrySet())
      updated.put(e.getKey(), serveValue(doc.objectName, e.getValue()));
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("status", "success");
    answer.put("message", "Object updated successfully");
    answer.put("savedObjectId", doc.id.hex());
    answer.put("updatedFields", updated);
    jsonp(ex, cb, answer);
  }

  /** Mongo $set semantics: a dotted name sets a nested field. */
  @SuppressWarnings("unchecked")
  static void setPath(Map<String, Object> fields, String name, Object value) {
    String[] parts = name.split("\\.");
    Map<String, Object> current = fields;
    for (int i = 0; i < parts.length - 1; i++) {
      Object next = current.get(parts[i]);
      if (!(next instanceof Map<?, ?>)) {
        next = new LinkedHashMap<String, Object>();
        current.put(parts[i], next);
      }
      current = (Map<String, Object>) next;
    }
    current.put(parts[parts.length - 1], value);
  }

  static void debug(HttpExchange ex, String path) throws IOException {
    Map<String, String> q = parseParams(ex.getRequestURI().getRawQuery(), StandardCharsets.UTF_8);
    Map<String, Object> answer = new LinkedHashMap<>();
    switch (path) {
      case "/__debug/store" -> {
        List<Object> docs = new ArrayList<>();
        for (Doc d : snapshot(Long.MAX_VALUE)) {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("_id", d.id.hex());
          m.put("objectName", d.objectName);
          m.put("applicationCode", d.app);
          m.put("organizationCode", d.org);
          m.put("version", d.version);
          m.put("fields", truthValue(d.fields));
          docs.add(m);
        }
        answer.put("quirks", new ArrayList<>(quirks));
        answer.put("docs", docs);
      }
      case "/__debug/writes" -> answer.put("writes", new ArrayList<>(writeLog));
      case "/__debug/expire" -> {
        int n = 0;
        for (Map.Entry<String, Session> e : sessions.entrySet())
          if (q.get("username") == null || e.getValue().user().username().equals(q.get("username"))) {
            e.getValue().expired()[0] = true;
            n++;
          }
        answer.put("expired", n);
      }
      default -> answer.put("error", "unknown debug path");
    }
    send(ex, 200, "application/json", Json.write(answer), StandardCharsets.UTF_8);
  }

  // ---------------------------------------------------------------------------------------------- seed

  static final long SEED_TIME = Instant.parse("2014-06-01T08:00:00Z").toEpochMilli();
  static int seedCounter = 0;

  static Oid seedId() {
    seedCounter++;
    return new Oid(String.format("538ade00%016x", 0xa000L + seedCounter));
  }

  static Oid seed(String objectName, String app, String org, Object... pairs) {
    Map<String, Object> data = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) data.put((String) pairs[i], pairs[i + 1]);
    Doc d = new Doc();
    d.id = seedId();
    d.objectName = objectName;
    d.app = app;
    d.org = org;
    // Seeded through the write path, so that seeds are stored as the service's own writes would be.
    d.fields = bindFields(objectName, data);
    d.createdBy = "seed";
    d.createdOn = SEED_TIME;
    d.modifiedOn = SEED_TIME;
    synchronized (ObjectDataService.class) {
      List<Version> versions = history.computeIfAbsent(d.id.hex(), k -> new ArrayList<>());
      versions.add(new Version(0, d.copy()));
      naturalOrder.add(d.id.hex());
    }
    return d.id;
  }

  static Date date(String iso) {
    return Date.from(Instant.parse(iso));
  }

  static Map<String, Object> map(Object... pairs) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) m.put((String) pairs[i], pairs[i + 1]);
    return m;
  }

  static void seedAll() {
    String loan = "com.acme.crm.LoanType";
    String order = "com.acme.crm.Order";
    String customer = "com.acme.crm.Customer";
    String appt = "com.acme.crm.Appointment";
    String crop = "com.acme.farm.Crop";
    seed(loan, "crm", "acme", "loanType", "Home Loan", "description", "Long-term housing loan", "rate", 7L,
        "maxAmount", 10000000L);
    seed(loan, "crm", "acme", "loanType", "Car Loan", "description", "Vehicle purchase", "rate", 9L, "maxAmount",
        1500000L);
    seed(loan, "crm", "acme", "loanType", "Gold Loan", "description", "Against gold|jewellery", "rate", 12L,
        "maxAmount", 250000L);
    seed(loan, "crm", "globex", "loanType", "Home Loan", "description", "Globex housing", "rate", 6L, "maxAmount",
        20000000L);
    seed(loan, "crm", "globex", "loanType", "Boat Loan", "description", "Globex boats", "rate", 11L, "maxAmount",
        800000L);
    Oid ravi = seed(customer, "crm", "acme", "name", "Ravi Kumar", "email", "ravi@example.in", "vip", true, "age",
        41L, "tags", List.of("gold", "early"));
    Oid anna = seed(customer, "crm", "acme", "name", "Anna Müller", "email", "anna@example.de", "vip", false,
        "age", 35L, "tags", List.of("new"));
    Oid kenji = seed(customer, "crm", "acme", "name", "Kenji 東京", "email", "kenji@example.jp", "vip", false,
        "age", 29L, "tags", List.of());
    Oid zed = seed(customer, "crm", "globex", "name", "Zed Globex", "email", "zed@globex.example", "vip", true,
        "age", 50L, "tags", List.of("gold"));
    seed(order, "crm", "acme", "orderNo", 9007199254740993L, "customer", ravi, "amount", 19.99, "quantity", 2L,
        "paid", true, "placedAt", date("2014-03-01T10:00:00Z"), "note", "café delivery", "shipping",
        map("city", "Pune", "zip", "411001"));
    seed(order, "crm", "acme", "orderNo", 1002L, "customer", anna, "amount", 250.5, "quantity", 10L, "paid",
        false, "placedAt", date("2014-04-15T23:30:00Z"), "note", "Rush", "shipping", map("city", "Berlin", "zip",
        "10115"));
    seed(order, "crm", "acme", "orderNo", 1003L, "customer", ravi, "amount", 5.0, "quantity", 1L, "paid", true,
        "placedAt", date("2014-05-20T06:15:00Z"), "note", "gift", "shipping", map("city", "Mumbai", "zip",
        "400001"));
    seed(order, "crm", "acme", "orderNo", 1004L, "customer", kenji, "amount", 1200.0, "quantity", 100L, "paid",
        false, "placedAt", date("2014-05-31T20:00:00Z"), "note", "Bulk 10%", "shipping", map("city", "Tokyo",
        "zip", "100-0001"));
    seed(order, "crm", "globex", "orderNo", 2001L, "customer", zed, "amount", 99.0, "quantity", 3L, "paid", true,
        "placedAt", date("2014-03-02T12:00:00Z"), "note", "Rush", "shipping", map("city", "Pune", "zip",
        "411002"));
    seed(appt, "crm", "acme", "title", "Loan review", "at", date("2014-06-10T04:30:00Z"), "confirmed", true,
        "attendee", ravi, "durationMinutes", 30L);
    seed(appt, "crm", "acme", "title", "KYC check", "at", date("2014-06-11T18:45:00Z"), "confirmed", false,
        "attendee", anna, "durationMinutes", 45L);
    seed(crop, "farm", "north", "name", "Wheat", "variety", "HD-2967", "hectares", 12.5, "organic", false,
        "population", 10000000L, "plantedOn", date("2014-11-05T00:00:00Z"), "field", map("id", "f-12", "name",
        "North"));
    seed(crop, "farm", "north", "name", "Rice", "variety", "Basmati 1121", "hectares", 40.0, "organic", true,
        "population", 2500000L, "plantedOn", date("2014-07-01T00:00:00Z"), "field", map("id", "f-7", "name",
        "River"));
    seed(crop, "farm", "north", "name", "Cotton", "variety", "Bt", "hectares", 8.25, "organic", false,
        "population", 120000L, "plantedOn", date("2014-05-15T00:00:00Z"), "field", map("id", "f-12", "name",
        "North"));
  }

  public static void main(String[] args) throws IOException {
    TimeZone.setDefault(TimeZone.getTimeZone("UTC"));
    int port = 0;
    String quirkList = System.getenv().getOrDefault("UPSTREAM_QUIRKS", "");
    String without = "";
    for (String arg : args) {
      if (arg.startsWith("--port=")) port = Integer.parseInt(arg.substring(7));
      else if (arg.startsWith("--quirks=")) quirkList = arg.substring(9);
      else if (arg.startsWith("--without=")) without = arg.substring(10);
      else if (arg.startsWith("--lag-ms=")) lagMillis = Long.parseLong(arg.substring(9));
      else if (arg.startsWith("--token-ttl-seconds=")) tokenTtlMillis = Long.parseLong(arg.substring(20)) * 1000;
      else throw new IllegalArgumentException("Unknown argument " + arg);
    }
    for (String q : quirkList.split(",")) {
      String name = q.trim();
      if (name.isEmpty()) continue;
      if (name.equals("all")) quirks.addAll(ALL_QUIRKS);
      else if (ALL_QUIRKS.contains(name)) quirks.add(name);
      else throw new IllegalArgumentException("Unknown quirk " + name);
    }
    for (String q : without.split(",")) quirks.remove(q.trim());
    seedAll();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 128);
    server.createContext("/", ObjectDataService::handle);
    server.setExecutor(Executors.newFixedThreadPool(8));
    server.start();
    System.out.println("LISTENING " + server.getAddress().getPort());
    System.out.println("QUIRKS " + String.join(",", quirks));
    System.out.flush();
  }
}
