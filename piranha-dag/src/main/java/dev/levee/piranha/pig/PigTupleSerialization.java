package dev.levee.piranha.pig;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.hadoop.io.serializer.Deserializer;
import org.apache.hadoop.io.serializer.Serialization;
import org.apache.hadoop.io.serializer.Serializer;
import org.apache.pig.data.BinInterSedes;
import org.apache.pig.data.DataType;
import org.apache.pig.data.Tuple;

/**
 * Pig tuples as Pig writes its intermediate files (BinInterSedes), whatever their class: Pig's
 * reducers emit tuples of several implementations whose own {@code write} formats differ, so a
 * tuple pushed over a forward edge is written the one way every Pig reader understands.
 */
public final class PigTupleSerialization implements Serialization<Tuple> {
  private static final BinInterSedes SEDES = new BinInterSedes();

  @Override
  public boolean accept(Class<?> c) {
    return Tuple.class.isAssignableFrom(c);
  }

  @Override
  public Serializer<Tuple> getSerializer(Class<Tuple> c) {
    return new Serializer<>() {
      private DataOutputStream out;

      @Override
      public void open(OutputStream o) {
        out = o instanceof DataOutputStream d ? d : new DataOutputStream(o);
      }

      @Override
      public void serialize(Tuple t) throws IOException {
        SEDES.writeDatum(out, t, DataType.TUPLE);
      }

      @Override
      public void close() throws IOException {
        out.close();
      }
    };
  }

  @Override
  public Deserializer<Tuple> getDeserializer(Class<Tuple> c) {
    return new Deserializer<>() {
      private DataInputStream in;

      @Override
      public void open(InputStream i) {
        in = i instanceof DataInputStream d ? d : new DataInputStream(i);
      }

      @Override
      public Tuple deserialize(Tuple reuse) throws IOException {
        return (Tuple) SEDES.readDatum(in);
      }

      @Override
      public void close() throws IOException {
        in.close();
      }
    };
  }
}
