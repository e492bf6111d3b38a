package io.ironloop.runtime.skeleton;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class DoubleDomainTest {
    private static final Box BOX = Box.of(new int[] {2, 10}, new int[] {5, 14}); // 3 x 4, global origin (2, 10)

    @Test
    void of_picksTheVariantByDimensions() {
        assertThat(DoubleDomain.of(Box.ofExtents(4), StorageOrder.C)).isInstanceOf(Domain1D.class);
        assertThat(DoubleDomain.of(BOX, StorageOrder.C)).isInstanceOf(Domain2D.class);
        assertThat(DoubleDomain.of(Box.ofExtents(2, 3, 4), StorageOrder.C)).isInstanceOf(Domain3D.class);
        assertThat(DoubleDomain.of(Box.ofExtents(2, 2, 2, 2), StorageOrder.C).getClass()).isEqualTo(DoubleDomain.class);
    }

    @Test
    void storageOrder_cIsRowMajor_fortranIsColumnMajor() {
        Domain2D c = (Domain2D) DoubleDomain.of(BOX, StorageOrder.C);
        Domain2D f = (Domain2D) DoubleDomain.of(BOX, StorageOrder.FORTRAN);
        assertThat(c.index(2, 11)).isEqualTo(1);   // last dimension contiguous
        assertThat(c.index(3, 10)).isEqualTo(4);
        assertThat(f.index(3, 10)).isEqualTo(1);   // first dimension contiguous
        assertThat(f.index(2, 11)).isEqualTo(3);
    }

    @ParameterizedTest
    @EnumSource(StorageOrder.class)
    void globalAndLocalCoordinates_reachTheSameElement(StorageOrder order) {
        Domain2D d = (Domain2D) DoubleDomain.of(BOX, order);
        d.set(4, 12, 7.5);
        assertThat(d.getLocal(2, 2)).isEqualTo(7.5);
        assertThat(d.get(new int[] {4, 12})).isEqualTo(7.5);
        assertThat(((DoubleDomain) d).getLocal(2, 2)).isEqualTo(7.5);
        assertThatThrownBy(() -> d.get(new int[] {5, 12})).isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining(
                "[2,5)x[10,14)");
    }

    @ParameterizedTest
    @EnumSource(StorageOrder.class)
    void copyOutThenCopyIn_movesExactlyTheRegion(StorageOrder order) {
        Domain3D a = (Domain3D) DoubleDomain.of(Box.ofExtents(4, 5, 6), order);
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 5; j++) {
                for (int k = 0; k < 6; k++) {
                    a.set(i, j, k, i * 100 + j * 10 + k);
                }
            }
        }
        Box region = Box.of(new int[] {1, 0, 2}, new int[] {3, 5, 4});
        double[] buf = new double[(int) region.size() + 1];
        assertThat(a.copyOut(region, buf, 1)).isEqualTo(buf.length);
        Domain3D b = (Domain3D) DoubleDomain.of(Box.of(new int[] {1, 0, 0}, new int[] {4, 5, 6}), order);
        b.copyIn(region, buf, 1);
        for (int i = 1; i < 4; i++) {
            for (int j = 0; j < 5; j++) {
                for (int k = 0; k < 6; k++) {
                    boolean in = i < 3 && k >= 2 && k < 4;
                    assertThat(b.get(i, j, k)).as("(%d,%d,%d)", i, j, k).isEqualTo(in ? a.get(i, j, k) : 0.0);
                }
            }
        }
    }

    @Test
    void resize_sameBoxKeepsTheData_otherBoxStartsAtZero() {
        Domain1D d = (Domain1D) DoubleDomain.of(Box.of(new int[] {3}, new int[] {6}), StorageOrder.C);
        d.set(4, 1.0);
        d.resize(Box.of(new int[] {3}, new int[] {6}));
        assertThat(d.get(4)).isEqualTo(1.0);
        d.resize(Box.of(new int[] {4}, new int[] {9}));
        assertThat(d.get(4)).isZero();
        assertThat(d.index(8)).isEqualTo(4);
    }
}
