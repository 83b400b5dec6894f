package k6redis

// reply is how a command's reply becomes the value its promise resolves
// with.
type reply int

const (
	// replyString is a string; a nil reply (missing key, empty list or
	// set) rejects the promise with go-redis's "redis: nil".
	replyString reply = iota
	// replyNumber is an integer reply as a number.
	replyNumber
	// replyBool is an integer reply as a boolean (1 is true).
	replyBool
	// replyStrings is an array of strings.
	replyStrings
	// replyValues is an array of strings with null for nil (mget).
	replyValues
	// replyHash is a flat field/value array as an object (hgetall).
	replyHash
	// replyAny is any reply: strings, numbers, null, arrays (sendCommand).
	replyAny
)

// command is one Client method: the Redis command it sends, the number of
// arguments it requires at least and how its reply is turned into
// JavaScript. Its arguments are sent in order after the command name,
// arrays spread (del(['a', 'b']) is del('a', 'b')).
type command struct {
	method string
	redis  string
	min    int
	reply  reply
}

// commands are the Client's methods, as k6 documents them. set and
// sendCommand read their arguments specially (see client.args).
var commands = []command{
	{"set", "SET", 2, replyString},
	{"get", "GET", 1, replyString},
	{"getSet", "GETSET", 2, replyString},
	{"del", "DEL", 1, replyNumber},
	{"getDel", "GETDEL", 1, replyString},
	{"exists", "EXISTS", 1, replyNumber},
	{"incr", "INCR", 1, replyNumber},
	{"incrBy", "INCRBY", 2, replyNumber},
	{"decr", "DECR", 1, replyNumber},
	{"decrBy", "DECRBY", 2, replyNumber},
	{"randomKey", "RANDOMKEY", 0, replyString},
	{"mget", "MGET", 1, replyValues},
	{"expire", "EXPIRE", 2, replyBool},
	{"ttl", "TTL", 1, replyNumber},
	{"persist", "PERSIST", 1, replyBool},
	{"lpush", "LPUSH", 2, replyNumber},
	{"rpush", "RPUSH", 2, replyNumber},
	{"lpop", "LPOP", 1, replyString},
	{"rpop", "RPOP", 1, replyString},
	{"lrange", "LRANGE", 3, replyStrings},
	{"lindex", "LINDEX", 2, replyString},
	{"lset", "LSET", 3, replyString},
	{"lrem", "LREM", 3, replyNumber},
	{"llen", "LLEN", 1, replyNumber},
	{"hset", "HSET", 3, replyNumber},
	{"hsetnx", "HSETNX", 3, replyBool},
	{"hget", "HGET", 2, replyString},
	{"hdel", "HDEL", 2, replyNumber},
	{"hgetall", "HGETALL", 1, replyHash},
	{"hkeys", "HKEYS", 1, replyStrings},
	{"hvals", "HVALS", 1, replyStrings},
	{"hlen", "HLEN", 1, replyNumber},
	{"hincrby", "HINCRBY", 3, replyNumber},
	{"sadd", "SADD", 2, replyNumber},
	{"srem", "SREM", 2, replyNumber},
	{"sismember", "SISMEMBER", 2, replyBool},
	{"smembers", "SMEMBERS", 1, replyStrings},
	{"srandmember", "SRANDMEMBER", 1, replyString},
	{"spop", "SPOP", 1, replyString},
	{"sendCommand", "", 1, replyAny},
}
