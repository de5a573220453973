import Foundation
import PlazaCore

@testable import PlazaMedia

/// Streams the hand-written compressor Plaza used before zlib wrote, each shown once to decompress to its input with
/// Python 3.11's zlib (`zlib.decompress(base64.b64decode(stream)) == input`, the inputs rebuilt in Python the way
/// `InflateTests` and `pixelsInput` build them).
extension DeflateTests {
    static let wordsStream = InflateTests.fixture(
        [
            "eJx9V1tSwzAMvEquFkrKZFpoh7QzDKcHZMf7kMKPqR3ruSvJvC7bZdpu53k6fy7LFNvruj3Wj7fpOr/f28n9On/Pbf+yXhZa2pd2aT1dnvfp9HvruSXh",
            "tvaPj+Xr8XK7DZmwvZtlZWGDtJDNkKGfQ2dY7oZCtGn/O41f2EbcWNyOe9mMu2MhGuoqZyShsYllfIf1kINaGOfENXUwRukfAqEj7mhKEKNa76p7YOJw",
            "U9U3/YLa0UARSPzqPjY53VAWCcihTQgxTplaFHm6Rxq7SIKOnGynghHyZcET/+LO/rkA3SgAnzWBpfm+ATk4jFjYdQVQsOuuahDtEHRgXegCps62hK+B",
            "FmkZCyouWSGUyKOMMdoO9HjvOZBicyGnoChqbk1CVdCwkEW9R2dlNTGiu/eCXIEmGaPKqcoy93ECjJPF9vsfsG73gRoq7KoQdw9tO07/xAOnI7uknYrJ",
            "Yi2tHi/gIfDWtiWYcD45STYxuBcU5FCfpbCLbpRiMvEBUr+P04q48JRNqX8oIOSDbyNfgIO9L2qobsPWj42nXsdZDDC65iKq6iVxrEno4ixkLhfzSmS5",
            "Z2loBdk0c+yxtAEeLMgS6qjEAS0pvZ9Q0Bo+X5TPKV0qByuSbRDQmJkYplnxcLi7HL2YcI4FiZRgSoScjPI4KWarC8p9YT+DyL+d7qIBZXvsgmKQBG02",
            "5oGIxpGfR9owE/wMBnvGJEvckeQkSuf3ITD8ZxxWryWeUgJPnp3cxsgDmFYzKQS8WzLzD4tGqFB2svQfiySG/c2tpJocefBjEJblILYdjvpRXhW6/R92",
            "+H76AQgsX2M=",
        ].joined()
    )

    static let farStream = InflateTests.fixture(
        [
            "eJztnFuSJSEIREUBlYdsd5Y/Wb2K7ghOxHz0nSpLEjL9Ux+5+3TWrAjaVPR01t66r524psun0AmW2k/c5j2xTF/dW1X61sm0p8b64uYrpTG86MiQGyvN",
            "z51rppbJ1IU/6MU8FFOFtLbeVDssJ3aQJ70ad5PXShopmb7yvXp6WI3WosPbbQxadceeSwbRlimn3rvONfI+cx0DS4cKKvDh+zK2cIbolr1jsC/GXmIJ",
            "HrY10glvx7607ImtOKTkstlQos6RJHNDhVepJ/A4U/jmvXIuRhlE5+wiTvFRSxgKQQZbW3zOuWIoKee0SKW7JpWbBhQ4njyW2FTTk0HyZI5V2NfyNSSf",
            "DtKxqO55F3I/ousQpOqJCMSqbxW2OrpJH8SbtXgHhIp797E8YYPSzbCCMrYXTxYlxT5r7HHy3kXTdiafbWvOq7v4WQ2UMO3OOeYjPnor7ZDjczRzY6fL",
            "g9am3IJdydOSr5V4NYQfyRm3AnMAeSwuZzxVvIuHqijr7p1QIXYKCpPhqOJNxiDhq+6iPErUFp41rsCv++6xw9MfPuxb1jno5bhSC7uba5g/ZswxHpEz",
            "16057pguWME18kDImRgXTAbxwF5vnZ1DNmateCtDZUhvUhTnql9BOQfzJLkDHojag+lBN3vOsX2c9xwDuB66iBWMJ9kmjH+JpcSYkugfx6kS/C3GY5za",
            "N85Y/KDStcRcXWY9jo1DdNv3fRvUc418hb8xJt5DH3RGTuiN/38zP5PadUo0dh6FZrZsaS4YSMLQFsK646instYNuXCgaQ3VS5NIZ85cZ8XG8K79+GvB",
            "WeYVBv/fO2Edh/3zqnhcDCJ0ybjDJkqUfcoUJY6NFqNAEUwYRfI8J9ThvoRTw+ZziHAxYrRmbOFA5QgK2mfywriaeB0adTGBeKsU830nHoAhx4QWTtAE",
            "QXNhD76wfR55lz+x/KHUr7L3pp6ZLKg3HWtpVHBAP6SLPV4bQqFI1Hfh9cxT69GzAb8ho1jx4/STih1KQRNUpa7wq+dxOGUl3lkXCWLISHRtDYgDM6kT",
            "ZL171mR85GFaA8MZcnQyOmAiq6AwBgpxiDcwR8Qxx66BD47HiRBUQnPSJwxtc3gaDJbIQTHDtKLQvVeYIzsWIYDgfcSz0tlHC/vj9+QdZfxDy/PxngM/",
            "F98v3BERFyZWQ8YhLc9Q7IZRGeIHLiQMNhVnQhAM4bbxYB7fQyMGshCzXoQZREgh0akWmoR3eS3kdl4Dt8TlbpYVdSIskEbDIw1i47Q4G0YSlLeRNmhr",
            "XYOh0NaLWLevDScdzXRijFfWF/mO+WScNwRv74SPlxsG5xMVR4Qk3106YqBZFzkL86FjfAiZ6Nf1jock20hR3xhYmzOGGT7wUzdkRcwzBy8vjwG3YScP",
            "UaCI48SSJ3Egvs9F4zvAXpyHRHj3QSvmY47DBHNX8+BY1ENvbJe4RzXPcYK+6DFS+D2clG/CUwhjxBrK/YyL1MAOESzIBbpwmK5xQ0PoO28RAhNTuWGA",
            "zW8g7xlBoN8xpo8xR8ewEVqQn5cg63C6FfTC+vdf0zRN0zRN0zRN0zRN0zRN0zRN0zRN0zRN0zRN0zRN0zRN0zRN0zRN0zRN0zRN0zRN0zRN0zRN0zRN",
            "8yvo+177vte+77Xve+37Xvu+177v9e/f9/of8FMXQA==",
        ].joined()
    )

    static let pixelsStream = InflateTests.fixture(
        [
            "eJyl1qGLOt0ex/FTZMAwFicIg+UUGTBo0TAglikiGLRoEMQyRQSDljUsyJYpi7BhtuyEhWHLlDcDhrE4YWGwnCIDFovFf+IuPDfccp97f8/CJ34+8Ern",
            "fIWgICgKSoKyoCKoCqSgJqgLmoKWwBZ0BY6gJxgIRoKxYCqYC1zBQrASbARPgmfBi8ATvAreBO+CD8Gn4EsQCRAcBEfBSfAtOAuU4CK4Cm6Cu+AhEBoF",
            "jaJGSaOsUdGoakiNmkZdo6nR0rA1uhqORk9joDHSGGtMNeYarsZCY6Wx0XjSeNZ40fA0XjXeNN41PjQ+Nb40Ig00DhpHjZPGt8ZZQ2lcNK4aN427xkND",
            "6BR0ijolnbJORaeqI3VqOnWdpk5Lx9bp6jg6PZ2BzkhnrDPVmeu4Ogudlc5G50nnWedFx9N51XnTedf50PnU+dKJdNA56Bx1TjrfOmcdpXPRuercdO46",
            "Dx1hUDAoGpQMygYVg6qBNKgZ1A2aBi0D26Br4Bj0DAYGI4OxwdRgbuAaLAxWBhuDJ4NngxcDz+DV4M3g3eDD4NPgyyAywOBgcDQ4GXwbnA2UwcXganAz",
            "uBs8DIRJwaRoUjIpm1RMqibSpGZSN2matExsk66JY9IzGZiMTMYmU5O5iWuyMFmZbEyeTJ5NXkw8k1eTN5N3kw+TT5Mvk8gEk4PJ0eRk8m1yNlEmF5Or",
            "yc3kbvIwEZKCpCgpScqSiqQqkZKapC5pSloSW9KVOJKeZCAZScaSqWQucSULyUqykTxJvmv2f0skQXKQHCWnn6bkLFGSi+QquUnukodEWBQsihYli7JF",
            "xaJqIS1qFnWLpkXLwrboWjgWPYuBxchibDG1mFu4FguLlcXG+jvMX8HiYHG0OP2ULc4WyuJicbW4WdwtHhaiQaFBsUGpQblBpUG1gWxQa1Bv0GzQamA3",
            "6DZwGvQaDBqMGowbTBvMG7gNFo3/LfnPHBucfiYNzg1Ug0uDa4Nbg3uDRwPRptCm2KbUptym0qbaRraptam3abZptbHbdNs4bXptBm1GbcZtpm3mbdw2",
            "i/YfetqcfiZtzm1Um0uba5tbm3ubRxvRodCh2KHUodyh0qHaQXaodah3aHZodbA7dDs4HXodBh1GHcYdph3mHdzOn2H+yuln1eHcQXW4dLh2uHW4d3h0",
            "EA4Fh6JDyaHsUHGoOkiHmkPdoenQcrAdug6OQ89h4DByGDtMHebOP8H8Ow5nB+Vwcbg63BzuDg8H0afQp9in1Kfcp9Kn2kf2qfWp92n2afWx+3T7OH16",
            "fQZ9Rn3GfaZ95v1fePqc+6g+lz7XPrc+9z6PPmJIYUhxSGlIeUhlSHWIHFIbUh/SHNIaYg/pDnGG9IYMhoyGjIdMh8yHv/AMOQ9RQy5DrkNuQ+5DHkPE",
            "hMKE4oTShPKEyoTqBDmhNqE+oTmhNcGe0J3gTOhNGEwYTRhPmE6YT37hmXCeoCZcJlwn3CbcJzwmiBmFGcUZpRnlGZUZ1RlyRm1GfUZzRmuGPaM7w5nR",
            "mzGYMZoxnjGdMZ/9wjPjPEPNuMy4zrjNuM94zBAuBZeiS8ml7FJxqbpIl5pL3aXp0nKxXboujkvPZeAychm7TF3m7i88LmcX5XJxubrcXO4uDxexpLCk",
            "uKS0pLyksqS6RC6pLakvaS5pLbGXdJc4S3pLBktGS8ZLpkvmy194lpyXqCWXJdcltyX3JY8lYk1hTXFNaU15TWVNdY1cU1tTX9Nc01pjr+mucdb01gzW",
            "jNaM10zXzNe/8Kw5r1FrLmuua25r7msea8SWwpbiltKW8pbKluoWuaW2pb6luaW1xd7S3eJs6W0ZbBltGW+Zbplvf+HZct6itly2XLfctty3PLaIHYUd",
            "xR2lHeUdlR3VHXJHbUd9R3NHa4e9o7vD2dHbMdgx2jHeMd0x3+Hu/tH7/LPacd6hdlx2XHfcdtx3PHYIj4JH0aPkUfaoeFQ9pEfNo+7R9Gh52B5dD8ej",
            "5zHwGHmMPaYecw/XY+H94f/lcfqZeJw9lMfF4+px87h7PDzEnsKe4p7SnvKeyp7qHrmntqe+p7mntcfe093j7OntGewZ7Rnvme6Z73H3LPZ/6Nlz+pns",
            "Oe9Rey57rntue+57HnuET8Gn6FPyKftUfKo+0qfmU/dp+rR8bJ+uj+PT8xn4jHzGPlOfuY/rs/BZ+Wz8/+P+8Tn4HH1OP2Wfs4/yufhcfW4+d5+Hjwgo",
            "BBQDSgHlgEpANUAG1ALqAc2AVoAd0A1wAnoBg4BRwDhgGjAPcAMWAauATcBT8Lf3YQABh4BjwOmnGXAOUAGXgGvALeAe8AgQIYWQYkgppBxSCamGyJBa",
            "SD2kGdIKsUO6IU5IL2QQMgoZh0xD5iFuyCJkFbIJeQp5DnkJ8UJeQ95C3kM+Qj5DvkKiEEIOIceQU8h3yDlEhVxCriG3kHvII0REFCKKEaWIckQlohoh",
            "I2oR9YhmRCvCjuhGOBG9iEHEKGIcMY2YR7gRi4hVxCbiKeI54iXCi3iNeIt4j/iI+Iz4iogiiDhEHCNOEd8R5wgVcYm4Rtwi7hGPCBFTiCnGlGLKMZWY",
            "aoyMqcXUY5oxrRg7phvjxPRiBjGjmHHMNGYe48YsYlYxm5inmOeYlxgv5jXmLeY95iPmM+YrJooh5hBzjDnFfMecY1TMJeYac4u5xzxiREIhoZhQSign",
            "VBKqCTKhllBPaCa0EuyEboKT0EsYJIwSxgnThHmCm7BIWCVsEp4SnhNeEryE14S3hPeEj4TPhK+EKIGEQ8Ix4ZTwnXBOUAmXhGvCLeGe8EgQKYWUYkop",
            "pZxSSammyJRaSj2lmdJKsVO6KU5KL2WQMkoZp0xT5iluyiJllbJJeUp5TnlJ8VJeU95S3lM+Uj5TvlKiFFIOKceUU8p3yjlFpVxSrim3lHvKI0VkFDKK",
            "GaWMckYlo5ohM2oZ9YxmRivDzuhmOBm9jEHGKGOcMc2YZ7gZi4xVxibjKeM54yXDy3jNeMt4z/jI+Mz4yogyyDhkHDNOGd8Z5wyVccm4Ztwy7hmPDKEo",
            "KIqKkqKsqCiqCqmoKeqKpqKlsBVdhaPoKQaKkWKsmCrmClexUKwUG8WT4lnxovAUr4o3xbviQ/Gp+FJEChQHxVFxUnwrzgqluCiuipvirngoRE4hp5hT",
            "yinnVHKqOTKnllPPaea0cuycbo6T08sZ5IxyxjnTnHmOm7PIWeVscp5ynnNecryc15y3nPecj5zPnK+cKIecQ84x55TznXPOUTmXnGvOLeee88j5F6Iw",
            "6/k=",
        ].joined()
    )

    /// A 48 × 32 RGB picture: a diagonal gradient with a red disc, as card art might be.
    static let pixelsInput: [UInt8] = {
        var pixels: [UInt8] = []
        for y in 0..<32 {
            for x in 0..<48 {
                let inside = (x - 30) * (x - 30) + (y - 14) * (y - 14) < 100
                pixels += inside ? [200, 40, 60] : [UInt8(x * 5 % 256), UInt8(y * 7 % 256), 180]
            }
        }
        return pixels
    }()
}
